/**
 * Reads a JSON-lines log of a run without ever writing to it, with the reader the run itself uses
 * (src/ground/files/json-lines.ts). A run may be in progress, so the bytes after the last newline are a
 * line still being written: they are left for the next read. A complete last line that is not JSON is a
 * torn write from a crash and is dropped (as the board does on open); damage anywhere before it is an
 * error naming the line.
 */
import { SopworksError } from '../../ground/errors.ts';
import { parseJsonLines as parseLines, readTextIfExists } from '../../ground/files/index.ts';

export interface JsonLines {
  /** Each complete, parsed line with its 1-based line number. */
  records: { line: number; value: unknown }[];
  /** A dropped torn last line, if there was one. */
  tornLine: number | null;
}

export function parseJsonLines(text: string, file: string): JsonLines {
  const parsed = parseLines(text);
  if (parsed.damagedAt !== null) {
    throw new SopworksError('USAGE', `${file}:${parsed.damagedAt}: the log is damaged (this line is not JSON, and it is not the last one).`, {
      hint: 'The run record was edited or corrupted; restore it from a backup, or look at the line with a text editor.',
    });
  }
  return { records: parsed.records, tornLine: parsed.torn?.line ?? null };
}

/** The parsed log, or null when the file does not exist (yet). */
export async function readJsonLines(file: string): Promise<JsonLines | null> {
  const text = await readTextIfExists(file);
  return text === null ? null : parseJsonLines(text, file);
}
