/** `sopworks approve`: approve-command.ts does it, loaded only then. */
import type { CommandEntry } from '../command-table.ts';

export const approveEntry: CommandEntry = {
  name: 'approve',
  handler: async ([project], options, io) => (await import('../approve-command.ts')).approveCommand(project as string, options, io),
  description: 'decide on what a run stopped with awaiting-approval is waiting for; then `resume` it',
  arguments: [{ syntax: '<project>', description: 'the project folder, e.g. output/wordfreq' }],
  flags: [{ syntax: '--reject <feedback>', description: 'reject it, saying what the role should change' }],
};
