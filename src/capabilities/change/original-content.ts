/**
 * What a file was before the step that edits it: the content an edit's SEARCH blocks were written
 * against, the same on resume as in the first run. That is the file's last Code posted before the
 * message the role is working on (a bug report's fix starts from the code that was tested), or else the
 * file at the base commit — never the work tree or the board as they are now: by the time a killed run
 * is resumed, an edit replayed from the exchange log may already be on both, and its SEARCH text would
 * no longer be found.
 */
import type { Message } from '../../engine/board/index.ts';
import { git } from '../../host/git/index.ts';

export interface CodeLike {
  path: string;
  content: string;
}

/** The seq of a message id (msg-000012 → 12); Infinity when there is no trigger (everything on the board is earlier). */
export function seqOf(id: string | null): number {
  const match = id ? /^msg-(\d+)$/.exec(id) : null;
  return match ? Number(match[1]) : Number.POSITIVE_INFINITY;
}

/** The file's content as the role's current work found it, or null when neither an earlier Code nor the base has it (a new file). */
export async function originalContent(input: {
  file: string;
  /** The path the file had at the base (a rename's old path). */
  source: string;
  codes: readonly Message<CodeLike>[];
  trigger: string | null;
  root: string;
  base: string | null;
}): Promise<string | null> {
  const before = seqOf(input.trigger);
  const earlier = input.codes.findLast((m) => m.payload.path === input.file && m.seq < before);
  if (earlier) return earlier.payload.content;
  if (!input.base) return null;
  const blob = await git(input.root, ['cat-file', 'blob', `${input.base}:${input.source}`], { okCodes: [128] });
  return blob.code === 0 ? blob.stdout : null;
}
