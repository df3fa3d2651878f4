/** `sopworks doctor`: doctor-command.ts does it, loaded only then. */
import type { CommandEntry } from '../command-table.ts';
import { modelForFlag, rolesFlag, sopsFlag } from './shared-flags.ts';

export const doctorEntry: CommandEntry = {
  name: 'doctor',
  handler: async (_positionals, options, io) => (await import('../doctor-command.ts')).doctorCommand(options, io),
  description: 'probe the model endpoint(s): reachable, key, model, structured output, context, usage, latency, JSON compliance',
  flags: [
    { syntax: '--llm <provider>', description: 'local[:<model name or .gguf path>]: check the in-process engine and model instead of the endpoint' },
    { syntax: '--model <name>', description: 'the model to check (default: SOPWORKS_MODEL or gpt-4o-mini)' },
    modelForFlag('check another model for one role, as `run --model-for` would use it (repeatable)'),
    sopsFlag('folder of company.yaml, whose roles may name their own models'),
    rolesFlag,
    { syntax: '--json', description: 'print the findings as JSON', default: false },
  ],
};
