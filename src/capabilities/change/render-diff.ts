/** A file's change as a unified diff (the `diff` library), for the review and the documents. Pure. */
import { createTwoFilesPatch, structuredPatch } from 'diff';

export function unifiedDiff(file: string, before: string | null, after: string): string {
  const patch = createTwoFilesPatch(before === null ? '/dev/null' : `a/${file}`, `b/${file}`, before ?? '', after, undefined, undefined, { context: 3 });
  // The header's "===" line adds nothing a reader needs.
  return patch.replace(/^=+\n/, '');
}

/**
 * Where each change to a file starts in its new content (0-based lines, in order): a long file is shown
 * around them (ground/text/file-excerpt.ts). A line only removed counts where the lines after it now start.
 */
export function changedLines(before: string, after: string): number[] {
  const { hunks } = structuredPatch('a', 'b', before, after, undefined, undefined, { context: 0 });
  // A hunk that only removes lines (newLines 0) starts where the lines after them now are.
  return [...new Set(hunks.map((h) => Math.max(0, h.newStart - 1)))];
}
