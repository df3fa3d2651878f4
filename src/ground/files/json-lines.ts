/**
 * A JSON-lines text parsed — the one reader of the run's logs, whether the process that appends reads them
 * (append-log.ts) or a viewer reads a run in progress (src/apps/review/). What follows the last newline is a
 * line still being written, or torn by a crash: never parsed. A complete last line that is not JSON (and
 * nothing after it) is a torn write too, left out; any other line that is not JSON is damage, which each
 * reader names its way.
 * Blank lines are skipped.
 */
export interface JsonLines {
  /** Each complete line parsed, with its 1-based number. */
  records: { line: number; value: unknown }[];
  /** What follows the last newline; null when the text ends with one (or is empty). */
  partial: string | null;
  /** The complete last line, when it is not JSON and nothing follows it: its number and text. */
  torn: { line: number; text: string } | null;
  /** The first line that is not JSON and is not torn, or null. */
  damagedAt: number | null;
}

export function parseJsonLines(text: string): JsonLines {
  const lines = text.split('\n');
  const last = lines.pop() ?? '';
  const parsed: JsonLines = { records: [], partial: last === '' ? null : last, torn: null, damagedAt: null };
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    try {
      parsed.records.push({ line: index + 1, value: JSON.parse(line) });
    } catch {
      // Only the very last line can be torn: one followed by more bytes is damage.
      if (index === lines.length - 1 && parsed.partial === null) parsed.torn = { line: index + 1, text: line };
      else return { ...parsed, damagedAt: index + 1 };
    }
  }
  return parsed;
}
