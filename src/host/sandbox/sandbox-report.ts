/**
 * What a sandboxed run reports besides its exit code: how it was isolated, which limits it hit, what
 * it tried that the sandbox refused, and what this mode does not stop. Pure schemas: the TestReport
 * carries this, so a reader of the board sees how the tests ran.
 */
import { z } from 'zod';
import { SandboxLimits } from './limits.ts';

/**
 * bubblewrap: namespaces (no network, read-only system, only the project writable).
 * node-permissions: Node's permission model (the fallback for Node projects without bubblewrap).
 * unsandboxed: only the limits and a clean environment (`--allow-unsandboxed`).
 */
export const SandboxMode = z.enum(['bubblewrap', 'node-permissions', 'unsandboxed']);
export type SandboxMode = z.infer<typeof SandboxMode>;

/** disk: a file over the size limit (SIGXFSZ/EFBIG), or more space or files added than allowed. */
export const LimitKind = z.enum(['time', 'cpu', 'memory', 'processes', 'output', 'disk']);
export type LimitKind = z.infer<typeof LimitKind>;

/**
 * filesystem: a read or write outside the project was refused, or the path is hidden from the sandbox;
 * network: a connection was refused or unreachable; process: a child process or worker was refused;
 * outlived: a process was still running after the run and was killed; symlink: the project holds a
 * link that points outside it; secret: a secret's value appeared in the output (it was redacted);
 * integrity: the repository's metadata or the run's record changed (restored; the run stops on it).
 */
export const ViolationKind = z.enum(['filesystem', 'network', 'process', 'outlived', 'symlink', 'secret', 'integrity']);
export type ViolationKind = z.infer<typeof ViolationKind>;

export const Violation = z.object({
  kind: ViolationKind,
  /** The evidence, with the project written as <project> so the same run reads the same anywhere. */
  detail: z.string(),
});
export type Violation = z.infer<typeof Violation>;

export const SandboxReport = z.object({
  mode: SandboxMode,
  limits: SandboxLimits,
  limitsHit: z.array(LimitKind),
  violations: z.array(Violation),
  /** What this mode could not stop on this machine; empty when everything the design asks is enforced. */
  gaps: z.array(z.string()),
  /** Which limit ended the run and, where the runner said, the test that was running (absent: none). */
  limitNotes: z.array(z.string()).optional(),
  /**
   * The variables sopworks set for the command, `NAME=value` or `NAME: what it is` (sandbox-environment.ts):
   * nothing else of sopworks' environment reaches it. Absent in reports from before it was listed.
   */
  environment: z.array(z.string()).optional(),
});
export type SandboxReport = z.infer<typeof SandboxReport>;
