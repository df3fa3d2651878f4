/**
 * A line cut to a terminal's width with "…", so it never wraps mid-word: counted in columns as the
 * terminal shows them (colours take none, a wide character two — string-width), cut without breaking a
 * colour (slice-ansi). Lines are left whole without a width (a pipe or a file gets every word).
 */
import sliceAnsi from 'slice-ansi';
import stringWidth from 'string-width';

export function fitLine(line: string, columns: number | undefined): string {
  if (!columns || columns < 2 || stringWidth(line) <= columns) return line;
  return `${sliceAnsi(line, 0, columns - 1)}…`;
}
