/** `sopworks resume`: its argument, and its flags as the session's ResumeAsk declares them; run-at-terminal.ts does it, loaded only then. */
import { flagsOf, ResumeAsk } from '../../../session/index.ts';
import type { CommandEntry } from '../command-table.ts';
import { jsonFlagOf, jsonLinesFlag } from './json-flag.ts';

export const resumeEntry: CommandEntry = {
  name: 'resume',
  handler: async ([project], options, io) =>
    (await import('../run-at-terminal.ts')).runAtTerminal(
      { command: 'resume', ask: { ...(options as object), project: project as string } },
      jsonFlagOf(options, 'resume'),
      io,
    ),
  description: 'continue a run that stopped before its outcome (crash, Ctrl-C, a failed step)',
  arguments: [{ syntax: '<project>', description: 'the project folder, e.g. output/wordfreq' }],
  flags: [...flagsOf(ResumeAsk), jsonLinesFlag],
};
