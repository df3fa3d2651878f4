/** A file's change as a unified diff (the `diff` library), for the review and the documents. Pure. */
import { createTwoFilesPatch } from 'diff';

export function unifiedDiff(file: string, before: string | null, after: string): string {
  const patch = createTwoFilesPatch(before === null ? '/dev/null' : `a/${file}`, `b/${file}`, before ?? '', after, undefined, undefined, { context: 3 });
  // The header's "===" line adds nothing a reader needs.
  return patch.replace(/^=+\n/, '');
}
