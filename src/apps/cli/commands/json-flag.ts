/**
 * `--json`, which every command that tells a run takes alike (commander gives a boolean, false by default),
 * and the words of a spec or a request as the session takes them: joined, `-` alone for standard input.
 */
import { z } from 'zod';
import { parseRequest } from '../../../session/index.ts';
import type { FlagEntry } from '../command-table.ts';

export const jsonLinesFlag: FlagEntry = {
  syntax: '--json',
  description: 'print JSON lines on stdout: every progress event, then the summary (docs/json-output.md)',
  default: false,
};

const JsonOnly = z.object({ json: z.boolean().default(false) });

export const jsonFlagOf = (options: unknown, command: string): boolean => parseRequest(JsonOnly, options, command).json;

/** The words given as one text; none when no word was given (a scenario may supply the text). */
export const textOf = (words: unknown): string | undefined => (Array.isArray(words) && words.length > 0 ? words.join(' ') : undefined);
