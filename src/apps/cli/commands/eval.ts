/** `sopworks eval`: eval-command.ts does it, loaded only then. */
import type { CommandEntry } from '../command-table.ts';
import { allowUnsandboxedFlag, rolesFlag, sopsFlag } from './shared-flags.ts';

export const evalEntry: CommandEntry = {
  name: 'eval',
  handler: async ([suite], options, io) => (await import('../eval-command.ts')).evalCommand(suite as string | undefined, options, io),
  description: 'run a suite of specs (several at once), measure each run, and write the table (docs/eval.md)',
  arguments: [{ syntax: '[suite]', description: 'the suite file, e.g. examples/eval/suite.yaml' }],
  flags: [
    { syntax: '--out <dir>', description: "where the suite's projects and results go (default: output/eval-<suite name>)" },
    { syntax: '--concurrency <n>', description: "how many runs at once (default: the suite's)" },
    { syntax: '--llm <provider>', description: 'the model of specs without a scenario: openai | scripted:<file>' },
    { syntax: '--model <name>', description: 'model name for the openai provider' },
    { syntax: '--compare <files...>', description: 'show two results files side by side: --compare a.json b.json' },
    { syntax: '--queue', description: 'hand the runs to the workers of the job queue (SOPWORKS_REDIS_URL; docs/scaling.md)', default: false },
    allowUnsandboxedFlag('run generated code that cannot be sandboxed here with your rights, only limited (docs/sandbox.md)'),
    {
      syntax: '--chaos <rate>',
      description: "spoil this share (0 to 1) of the scenarios' replies the ways real models do; each spec also runs clean, to compare",
    },
    { syntax: '--seed <n>', description: "the first repeat's chaos seed; repeat i uses seed + i - 1 (default 1)" },
    { syntax: '--repeat <n>', description: 'run every spec n times (with --chaos, each with its own seed)' },
    sopsFlag(),
    rolesFlag,
  ],
};
