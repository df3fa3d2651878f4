/** `sopworks jobs`: jobs-command.ts does it, loaded only then. */
import type { CommandEntry } from '../command-table.ts';

export const jobsEntry: CommandEntry = {
  name: 'jobs',
  handler: async (_positionals, options, io) => (await import('../jobs-command.ts')).jobsCommand(options, io),
  description: 'the runs on the job queue: queued, running, finished, failed',
  flags: [
    { syntax: '--limit <n>', description: 'at most this many jobs per state', default: '200' },
    { syntax: '--json', description: 'as JSON', default: false },
  ],
};
