/** Flags several commands declare with the same words: one definition each, so their help stays alike. */
import { DEFAULT_ROLES, DEFAULT_SOPS } from '../package-root.ts';
import type { FlagEntry } from '../command-table.ts';

export const jsonLinesFlag: FlagEntry = {
  syntax: '--json',
  description: 'print JSON lines on stdout: every progress event, then the summary (docs/json-output.md)',
  default: false,
};

export const sopsFlag = (description = 'folder of company.yaml and the SOP files', folder = DEFAULT_SOPS): FlagEntry => ({
  syntax: '--sops <dir>',
  description,
  default: folder,
});

export const rolesFlag: FlagEntry = { syntax: '--roles <dir>', description: 'folder of role profiles and prompt templates', default: DEFAULT_ROLES };

export const modelForFlag = (description: string): FlagEntry => ({ syntax: '--model-for <role=model>', description, repeatable: true });

export const allowUnsandboxedFlag = (description: string): FlagEntry => ({ syntax: '--allow-unsandboxed', description, default: false });

/** The limits and recording of a run that `run` and `change` take alike. */
export const limitFlags: readonly FlagEntry[] = [
  { syntax: '--budget <usd>', description: 'stop (outcome budget-exhausted, exit 3) before spending more than this many US dollars' },
  { syntax: '--max-tokens <n>', description: 'stop before using more than this many tokens (prompt + completion)' },
  maxTimeFlag(),
  { syntax: '--record <file>', description: "write the run's model replies as a scenario file, to replay it offline" },
];

export function maxTimeFlag(): FlagEntry {
  return {
    syntax: '--max-time <duration>',
    description: 'stop the run at this time limit, e.g. 30m or 1h30m (outcome timed-out, exit 124; resume continues it)',
  };
}

export const approveFlag: FlagEntry = { syntax: '--approve <gates>', description: 'hold these artifacts until a person approves them: prd,design,code,tests' };

/** `--clarify`: `what` is what the Product Manager writes after the questions (the PRD, the change request). */
export const clarifyFlag = (what: string): FlagEntry => ({
  syntax: '--clarify',
  description: `let the Product Manager ask you a few questions before ${what} (at this terminal, else from the workbench)`,
  default: false,
});

export const yesFlag: FlagEntry = { syntax: '--yes', description: 'approve every gated artifact without asking', default: false };

/** `--chaos` and `--seed` as `run` and `change` take them. */
export const chaosFlags: readonly FlagEntry[] = [
  { syntax: '--chaos <rate>', description: "spoil this share (0 to 1) of a scripted scenario's replies the ways real models do (docs/eval.md)" },
  { syntax: '--seed <n>', description: 'which replies --chaos spoils, and how (default 1): the same seed, the same faults' },
];
