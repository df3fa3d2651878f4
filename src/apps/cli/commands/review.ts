/** `sopworks review`: review-command.ts does it, loaded only then. */

import { z } from 'zod';
import { parseRequest } from '../../../session/index.ts';
import type { CommandEntry } from '../command-table.ts';

const ReviewFlags = z.object({ json: z.boolean().default(false), diff: z.boolean().default(false), usage: z.boolean().default(false) });

export const reviewEntry: CommandEntry = {
  name: 'review',
  needsNoSettings: true,
  handler: async ([project], options, io) =>
    (await import('../review-command.ts')).reviewCommand(project as string, io, parseRequest(ReviewFlags, options, 'review')),
  description: 'report on a run: outcome, timeline, artifacts, tests, usage and cost, git log',
  arguments: [{ syntax: '<project>', description: 'the project folder, e.g. output/wordfreq' }],
  flags: [
    { syntax: '--json', description: 'print the timeline as JSON lines, then a summary (docs/json-output.md)', default: false },
    { syntax: '--usage', description: 'only the usage tables, per role and per step (calls, tokens, cache, cost)', default: false },
    { syntax: '--diff', description: "a change run's diff against its base, file by file, and the commands to merge it and clean up", default: false },
  ],
};
