/** What a caller asks to continue a run that stopped before its outcome (`sopworks resume`, eval, a worker, the workbench). */
import { z } from 'zod';
import { flag } from './flag.ts';
import { chaosRate, chaosSeed, positiveInteger, positiveNumber } from './flag-values.ts';
import { allowUnsandboxedFlag, maxTimeFlag, modelForFlag, yesFlag } from './run-flags.ts';

export const ResumeAsk = z.object({
  /** The project folder, e.g. output/wordfreq. */
  project: z.string().min(1, 'name the project folder to resume'),
  llm: flag(z.string().optional(), {
    value: '<provider>',
    description: 'another provider than the run started with: openai | local[:<name or path>] | scripted:<file>',
  }),
  model: flag(z.string().min(1).optional(), { value: '<name>', description: 'another model for the openai provider' }),
  modelFor: modelForFlag('another model for one role, e.g. architect=gpt-4o (repeatable)'),
  budget: flag(positiveNumber('US dollars'), { value: '<usd>', description: 'a new limit in US dollars for the whole run (what was spent counts)' }),
  maxTokens: flag(positiveInteger('tokens'), { value: '<n>', description: 'a new token limit for the whole run (what was used counts)' }),
  maxTime: maxTimeFlag(),
  record: flag(z.string().min(1).optional(), { value: '<file>', description: "write the run's model replies as a scenario file" }),
  /** Guidance for the step that failed, shown in its prompt when it is asked again. */
  hint: flag(z.string().trim().min(1, 'give the guidance as text, e.g. --hint "write the whole file, no placeholders"').optional(), {
    value: '<text>',
    description: 'guidance for the step that failed, shown in its prompt when it is asked again',
  }),
  /** Stop again, at a later point; without it, a run that stopped at its `--until` point goes on to the end, one stopped before it keeps it. */
  until: flag(z.string().trim().min(1).optional(), {
    value: '<point>',
    description:
      'stop at this point (prd, design, tasks); without it, a run paused at its --until point goes on to the end, one stopped before it keeps its --until',
  }),
  yes: yesFlag(),
  allowUnsandboxed: allowUnsandboxedFlag('run generated code that cannot be sandboxed here with your rights, only limited (docs/sandbox.md)'),
  chaos: flag(chaosRate(), { value: '<rate>', description: "spoil this share of the scenario's replies from here on (default: as the run started)" }),
  seed: flag(chaosSeed(), { value: '<n>', description: 'which replies --chaos spoils (default 1)' }),
});
export type ResumeAsk = z.input<typeof ResumeAsk>;
export type CheckedResumeAsk = z.output<typeof ResumeAsk>;
