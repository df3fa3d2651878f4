/** What a run hands its roles for running generated code: the mode, the limits, and the user's consent. */
import type { ModeSetting } from './choose-mode.ts';
import { DEFAULT_LIMITS, type SandboxLimits } from './limits.ts';

export interface SandboxSettings {
  mode: ModeSetting;
  /** The wall clock here is the default; a SOP's runTests step sets its own. */
  limits: SandboxLimits;
  /** `--allow-unsandboxed`: run what cannot be sandboxed anyway, with only the limits. */
  allowUnsandboxed: boolean;
}

export const DEFAULT_SANDBOX_SETTINGS: SandboxSettings = { mode: 'auto', limits: DEFAULT_LIMITS, allowUnsandboxed: false };

export function sandboxSettings(configured: { mode: ModeSetting; limits: Omit<SandboxLimits, 'wallSeconds'> }, allowUnsandboxed: boolean): SandboxSettings {
  return { mode: configured.mode, limits: { ...configured.limits, wallSeconds: DEFAULT_LIMITS.wallSeconds }, allowUnsandboxed };
}
