/**
 * Flags several requests take with the same words (start, change, resume): one definition each, so their
 * checks and their help stay alike. What differs by request (--out, --llm, --sops …) is in its own schema.
 */
import { z } from 'zod';
import { DEFAULT_ROLES } from '../ground/package-root.ts';
import { flag, flagWithDefault } from './flag.ts';
import { chaosRate, chaosSeed, duration, gateList, positiveInteger, positiveNumber } from './flag-values.ts';

export const maxTimeFlag = () =>
  flag(duration(), {
    value: '<duration>',
    description: 'stop the run at this time limit, e.g. 30m or 1h30m (outcome timed-out, exit 124; resume continues it)',
  });

export const modelForFlag = (description: string) => flag(z.array(z.string()).default([]), { value: '<role=model>', description, repeatable: true });

export const allowUnsandboxedFlag = (description: string) => flagWithDefault(z.boolean(), false, { description });

export const yesFlag = () => flagWithDefault(z.boolean(), false, { description: 'approve every gated artifact without asking' });

/** `--clarify`: `what` is what the Product Manager writes after the questions (the PRD, the change request). */
export const clarifyFlag = (what: string) =>
  flagWithDefault(z.boolean(), false, {
    description: `let the Product Manager ask you a few questions before ${what} (at this terminal, else from the workbench)`,
  });

/** The limits and recording of a run that a start and a change take alike. */
export const limitFlags = () => ({
  budget: flag(positiveNumber('US dollars'), {
    value: '<usd>',
    description: 'stop (outcome budget-exhausted, exit 3) before spending more than this many US dollars',
  }),
  maxTokens: flag(positiveInteger('tokens'), { value: '<n>', description: 'stop before using more than this many tokens (prompt + completion)' }),
  maxTime: maxTimeFlag(),
  record: flag(z.string().min(1).optional(), { value: '<file>', description: "write the run's model replies as a scenario file, to replay it offline" }),
});

export const approveFlag = () =>
  flag(gateList(), { value: '<gates>', description: 'hold these artifacts until a person approves them: prd,design,code,tests' });

/** `--chaos` and `--seed` as a start and a change take them. */
export const chaosFlags = () => ({
  chaos: flag(chaosRate(), {
    value: '<rate>',
    description: "spoil this share (0 to 1) of a scripted scenario's replies the ways real models do (docs/eval.md)",
  }),
  seed: flag(chaosSeed(), { value: '<n>', description: 'which replies --chaos spoils, and how (default 1): the same seed, the same faults' }),
});

export const sopsFlag = (description: string, folder: string) => flagWithDefault(z.string().min(1), folder, { value: '<dir>', description });

export const rolesFlag = () =>
  flagWithDefault(z.string().min(1), DEFAULT_ROLES, { value: '<dir>', description: 'folder of role profiles and prompt templates' });

export const specFileFlag = (what: string) => flag(z.string().min(1).optional(), { value: '<file>', description: `read the ${what} from this file` });
