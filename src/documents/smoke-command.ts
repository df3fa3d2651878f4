/**
 * Which command runs the program once on a concrete input: the design's smoke command, else its run
 * command, whichever runs as written (no placeholder). Pure; read by QA's runProgram step and by the
 * design's check, which makes sure QA may run it before any code is written.
 */
import type { Design } from './schemas.ts';

/** A word of a run command that stands for an input to fill in: FILE..., <path>, [options], $INPUT, {file}, path/to/x. */
const MARKED = /\.\.\.$|^<.*>$|^\[.*\]$|^\$\{?\w+\}?$|^\{.*\}$|^(?:\.\/)?path\/to\/|^your[_-]/i;

/** What a placeholder written as a bare capitalised word names (FILE, INPUT, TEXT, INPUT_FILE, FILE-PATH, N). */
const NOUNS = new Set(
  'FILE FILES FILENAME FILENAMES FILEPATH PATH PATHS DIR DIRECTORY FOLDER INPUT INPUTS OUTPUT TEXT STRING STR WORD WORDS NUMBER NUM N COUNT VALUE VALUES ARG ARGS ARGUMENT ARGUMENTS NAME URL QUERY PATTERN KEY ID DATA SOURCE SRC DEST DESTINATION TARGET CSV JSON'.split(
    ' ',
  ),
);

/**
 * Whether a word of a command is a placeholder rather than an input: marked as one, or a bare word in
 * capitals made of what placeholders name (`node src/cli.js FILE`, `python -m app INPUT`, `fib N`) —
 * not a capitalised value such as `C`, `GET` or `CELSIUS`.
 */
export function isPlaceholder(word: string): boolean {
  if (MARKED.test(word)) return true;
  if (!/^[A-Z][A-Z0-9]*(?:[_-][A-Z0-9]+)*$/.test(word)) return false;
  return word.split(/[_-]/).some((part) => NOUNS.has(part));
}

/**
 * The command to smoke-test the program with, or null when there is none that runs as written (a
 * library): the design's smoke command, else its run command — whichever has no placeholder.
 */
export function smokeCommandOf(design: Pick<Design, 'runCommand' | 'smokeCommand'>): string[] | null {
  const runsAsWritten = (command: string[] | null | undefined): command is string[] =>
    Array.isArray(command) && command.length > 0 && !command.some(isPlaceholder);
  if (runsAsWritten(design.smokeCommand)) return design.smokeCommand;
  if (runsAsWritten(design.runCommand)) return design.runCommand;
  return null;
}
