/** `sopworks serve`: serve-command.ts does it, loaded only then. */
import type { CommandEntry } from '../command-table.ts';

export const serveEntry: CommandEntry = {
  name: 'serve',
  handler: async ([dir], options, io) => (await import('../serve-command.ts')).serveCommand(dir as string, options, io),
  description: 'a local web viewer of the runs in a folder, live while a run is in progress',
  arguments: [{ syntax: '[dir]', description: 'a folder of projects, or one project', default: 'output' }],
  flags: [
    { syntax: '--port <port>', description: 'port to listen on (0: any free port)', default: '4173' },
    {
      syntax: '--host <host>',
      description: 'address to bind; keep the default unless you know why (beyond the loopback, reads need the token too)',
      default: '127.0.0.1',
    },
    { syntax: '--allow-host <name>', description: 'another name the viewer answers to, e.g. a DNS name or a proxy (repeatable)', repeatable: true },
    { syntax: '--llm <provider>', description: 'the model of a change started from a page, as `sopworks change --llm` takes it' },
    { syntax: '--model <name>', description: 'the model name of a change started from a page (openai provider)' },
  ],
};
