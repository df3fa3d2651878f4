/**
 * Reads a JSON-lines log of a run without ever writing to it. A run may be in progress, so the bytes
 * after the last newline are a line still being written: they are left for the next read. A complete
 * last line that is not JSON is a torn write from a crash and is dropped (as the board does on open);
 * damage anywhere before it is an error naming the line.
 */
import { SopworksError } from '../../ground/errors.ts';
import { readTextIfExists } from '../../ground/files/index.ts';

export interface JsonLines {
  /** Each complete, parsed line with its 1-based line number. */
  records: { line: number; value: unknown }[];
  /** A dropped torn last line, if there was one. */
  tornLine: number | null;
}

export function parseJsonLines(text: string, file: string): JsonLines {
  const lines = text.split('\n');
  const partial = lines.pop() ?? '';
  const records: JsonLines['records'] = [];
  let tornLine: number | null = null;
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    try {
      records.push({ line: index + 1, value: JSON.parse(line) });
    } catch {
      const isLast = index === lines.length - 1 && partial === '';
      if (!isLast) {
        throw new SopworksError('USAGE', `${file}:${index + 1}: the log is damaged (this line is not JSON, and it is not the last one).`, {
          hint: 'The run record was edited or corrupted; restore it from a backup, or look at the line with a text editor.',
        });
      }
      tornLine = index + 1;
    }
  });
  return { records, tornLine };
}

/** The parsed log, or null when the file does not exist (yet). */
export async function readJsonLines(file: string): Promise<JsonLines | null> {
  const text = await readTextIfExists(file);
  return text === null ? null : parseJsonLines(text, file);
}
