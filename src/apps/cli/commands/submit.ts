/** `sopworks submit`: submit-command.ts does it, loaded only then. */
import { flagsOf, QueuedFlagsAsk } from '../../../session/index.ts';
import type { CommandEntry } from '../command-table.ts';
import { allowUnsandboxedFlag, rolesFlag, sopsFlag } from './shared-flags.ts';

export const submitEntry: CommandEntry = {
  name: 'submit',
  handler: async ([spec], options, io) => (await import('../submit-command.ts')).submitCommand(spec as string[], options, io),
  description: 'check a run as `run` would and put it on the job queue for a worker',
  arguments: [{ syntax: '[spec...]', description: 'what to build, in one line (a scripted scenario may supply it)' }],
  flags: [
    { syntax: '--instructions <file>', description: "the project's own rules for every role (e.g. an AGENTS.md), carried in the job" },
    { syntax: '--name <project>', description: 'project folder name (default: from the spec)' },
    { syntax: '--out <dir>', description: 'where projects are created: a folder every worker reaches at the same path', default: 'output' },
    { syntax: '--llm <provider>', description: 'openai | scripted:<scenario file>' },
    { syntax: '--model <name>', description: 'model name for the openai provider' },
    allowUnsandboxedFlag("run generated code that cannot be sandboxed with the worker's rights, only limited"),
    sopsFlag(),
    rolesFlag,
    // What the run keeps in its run.json, as `run` takes them.
    ...flagsOf(QueuedFlagsAsk),
  ],
};
