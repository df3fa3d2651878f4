/** `sopworks change`: its arguments, and its flags as the session's ChangeAsk declares them; run-at-terminal.ts does it, loaded only then. */
import { ChangeAsk, flagsOf } from '../../../session/index.ts';
import type { CommandEntry } from '../command-table.ts';
import { jsonFlagOf, jsonLinesFlag, textOf } from './json-flag.ts';

export const changeEntry: CommandEntry = {
  name: 'change',
  handler: async ([repo, words], options, io) =>
    (await import('../run-at-terminal.ts')).runAtTerminal(
      { command: 'change', ask: { ...(options as object), repo: repo as string, request: textOf(words) } },
      jsonFlagOf(options, 'change'),
      io,
    ),
  description: 'change an existing git repository on a new branch, in its own work tree (your work tree is never touched)',
  arguments: [
    { syntax: '<repo>', description: 'the top folder of a git repository with a clean work tree' },
    { syntax: '[request...]', description: 'what to change, in one line; - reads it from standard input (a scripted scenario may supply it)' },
  ],
  flags: [...flagsOf(ChangeAsk), jsonLinesFlag],
};
