/** `sopworks answer`: answer-command.ts does it, loaded only then. */
import type { CommandEntry } from '../command-table.ts';

export const answerEntry: CommandEntry = {
  name: 'answer',
  needsNoSettings: true,
  handler: async ([project, answers], _options, io) => (await import('../answer-command.ts')).answerCommand(project, answers, io),
  description: 'answer the questions a run stopped with awaiting-approval asks (--clarify); then `resume` it',
  arguments: [
    { syntax: '<project>', description: 'the project folder, e.g. output/wordfreq' },
    { syntax: '[answers...]', description: 'one answer per question, in order ("" for no preference); none: print the questions' },
  ],
};
