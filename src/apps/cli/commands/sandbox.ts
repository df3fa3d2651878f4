/** `sopworks sandbox exec`; sandbox-command.ts runs it, loaded only then. */
import type { CommandEntry } from '../command-table.ts';
import { sopsFlag } from './shared-flags.ts';

export const sandboxEntry: CommandEntry = {
  name: 'sandbox',
  description: 'run commands the way generated code runs: isolated and bounded (docs/sandbox.md)',
  subcommands: [
    {
      name: 'exec',
      description: 'run a command in a project exactly as QA runs its tests, and print the outcome',
      arguments: [{ syntax: '<command...>', description: 'the command and its arguments, after --' }],
      flags: [
        { syntax: '--dir <dir>', description: 'the project folder to run in (the only writable folder)', required: true },
        {
          syntax: '--allow-unsandboxed',
          description: 'run even where the command cannot be sandboxed (no bubblewrap, not Node), with your rights',
          default: false,
        },
        { syntax: '--timeout <seconds>', description: 'wall-clock limit', default: '120' },
        { syntax: '--role <id>', description: 'the role whose commands the policy allows', default: 'qa' },
        sopsFlag('folder of the authorization policy (policy.yaml)'),
      ],
      handler: async ([command], options, io) => (await import('../sandbox-command.ts')).sandboxExec(command as string[], options, io),
    },
  ],
};
