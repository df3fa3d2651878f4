/** `sopworks worker`: worker-command.ts does it, loaded only then. */
import type { CommandEntry } from '../command-table.ts';
import { allowUnsandboxedFlag } from './shared-flags.ts';

export const workerEntry: CommandEntry = {
  name: 'worker',
  handler: async (_positionals, options, io) => (await import('../worker-command.ts')).workerCommand(options, io),
  description: 'run queued runs, several at once, until stopped (SOPWORKS_REDIS_URL; docs/scaling.md)',
  flags: [
    { syntax: '--concurrency <n>', description: 'how many runs at once', default: '2' },
    { syntax: '--lock-ms <ms>', description: "how long a job stays locked without renewal: a dead worker's runs are taken over after it", default: '30000' },
    { syntax: '--runs-root <dir>', description: "a folder jobs' runs may be made in (repeatable; default: output)", repeatable: true },
    {
      syntax: '--company-root <dir>',
      description: "a folder jobs' SOPs, roles and scenarios may be read from (repeatable; default: the package's)",
      repeatable: true,
    },
    allowUnsandboxedFlag('let jobs that ask for it run generated code unsandboxed (docs/sandbox.md)'),
    { syntax: '--allow-base-url <url>', description: "another endpoint a job's roles may call with this worker's keys (repeatable)", repeatable: true },
    { syntax: '--allow-model <name>', description: 'the only models jobs may ask (repeatable; default: any at an allowed endpoint)', repeatable: true },
  ],
};
