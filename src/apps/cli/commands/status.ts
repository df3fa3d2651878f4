/** `sopworks status`: status-command.ts does it, loaded only then. */
import type { CommandEntry } from '../command-table.ts';
import { jsonFlagOf } from './json-flag.ts';

export const statusEntry: CommandEntry = {
  name: 'status',
  needsNoSettings: true,
  handler: async ([dir], options, io) => (await import('../status-command.ts')).statusCommand(dir as string, io, jsonFlagOf(options, 'status')),
  description: 'list the runs in a folder with their outcome, last step and usage',
  arguments: [{ syntax: '[dir]', description: 'a folder of projects, or one project', default: 'output' }],
  flags: [{ syntax: '--json', description: 'print a JSON line per run, then a summary (docs/json-output.md)', default: false }],
};
