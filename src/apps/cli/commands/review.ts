/** `sopworks review`: review-command.ts does it, loaded only then. */
import type { CommandEntry } from '../command-table.ts';
import { jsonFlagOf } from './json-flag.ts';

export const reviewEntry: CommandEntry = {
  name: 'review',
  handler: async ([project], options, io) => (await import('../review-command.ts')).reviewCommand(project as string, io, jsonFlagOf(options, 'review')),
  description: 'report on a run: outcome, timeline, artifacts, tests, usage and cost, git log',
  arguments: [{ syntax: '<project>', description: 'the project folder, e.g. output/wordfreq' }],
  flags: [{ syntax: '--json', description: 'print the timeline as JSON lines, then a summary (docs/json-output.md)', default: false }],
};
