/** host/sandbox: its public face — what other folders may use of it. */
export { bubblewrapAvailability, SANDBOX_PROJECT } from './bubblewrap.ts';
export { MODE_SETTINGS, type ModeSetting } from './choose-mode.ts';
export { refuseUnsandboxableAtStart, type SandboxFacts, sandboxFacts, sandboxRefusal, sandboxRefusalNow } from './early-refusal.ts';
export { findCommand } from './find-command.ts';
export { QUARANTINE } from './git-dir-layout.ts';
export type { AcceptLine } from './integrity.ts';
export { DEFAULT_LIMITS, describeLimits, type SandboxLimits } from './limits.ts';
export { withoutMachinePaths } from './machine-paths.ts';
export { inside } from './path-inside.ts';
export { PROJECT_PTH } from './project-venv.ts';
export { removeTree } from './remove-tree.ts';
export { runSandboxed, type SandboxOutcome } from './run-sandboxed.ts';
export { sandboxEnvironment } from './sandbox-environment.ts';
export { type LimitKind, type SandboxMode, SandboxReport } from './sandbox-report.ts';
export { DEFAULT_SANDBOX_SETTINGS, type SandboxSettings, sandboxSettings } from './sandbox-settings.ts';
export { securityStopReason, securityViolations } from './security-violation.ts';
