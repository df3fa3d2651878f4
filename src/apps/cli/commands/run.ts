/** `sopworks run`: its arguments, and its flags as the session's StartAsk declares them; run-at-terminal.ts does it, loaded only then. */
import { flagsOf, StartAsk } from '../../../session/index.ts';
import type { CommandEntry } from '../command-table.ts';
import { jsonFlagOf, jsonLinesFlag, textOf } from './json-flag.ts';

export const runEntry: CommandEntry = {
  name: 'run',
  handler: async ([words], options, io) =>
    (await import('../run-at-terminal.ts')).runAtTerminal(
      { command: 'run', ask: { ...(options as object), spec: textOf(words) } },
      jsonFlagOf(options, 'run'),
      io,
    ),
  description: 'run the company on a spec and commit what it makes into a new git repository',
  arguments: [{ syntax: '[spec...]', description: 'what to build, in one line; - reads it from standard input (a scripted scenario may supply it)' }],
  flags: [...flagsOf(StartAsk), jsonLinesFlag],
};
