/**
 * An Engineer's reply to a change of one existing file: search/replace blocks
 *
 *     <<<<<<< SEARCH
 *     the exact lines as they are in the file
 *     =======
 *     what they become
 *     >>>>>>> REPLACE
 *
 * (inside a fence or not), or, for a small file, its whole new content in one fenced block. Pure: the
 * blocks are applied to the file by src/capabilities/change/apply-edits.ts, which says why when one does not fit.
 */

import type { EditsReply, SearchReplace } from '../../../documents/index.ts';
import { parseCodeReply } from './code-reply.ts';
import { isRefusal, refusalError } from './refusal.ts';
import { emptyReplyError, fail, ok, type ParseResult, stripThinking } from './result.ts';

const START = /^\s*<{5,9} ?SEARCH\s*$/;
const MIDDLE = /^\s*={5,9}\s*$/;
const END = /^\s*>{5,9} ?REPLACE\s*$/;
const FENCE_LINE = /^\s*(`{3,}|~{3,})/;
/** A fence line that closes a block: its marker alone (CommonMark: no info string). */
const CLOSING_FENCE = /^\s*(`{3,}|~{3,})\s*$/;

export function parseEditsReply(raw: string, filePath: string): ParseResult<EditsReply> {
  const wanted = `SEARCH/REPLACE blocks for ${filePath} (or, for a small file, its whole content in one fenced block)`;
  const text = stripThinking(raw);
  if (text === '') return fail(emptyReplyError(raw, wanted));
  if (!text.split('\n').some((line) => START.test(line))) {
    if (isRefusal(text) && !text.includes('```')) return fail(refusalError(text, wanted));
    const whole = parseCodeReply(text, filePath);
    if (!whole.ok) return fail(`the reply has no SEARCH/REPLACE block and no usable whole file (${whole.error}); reply with ${wanted}`);
    return ok({ kind: 'whole', path: filePath, content: whole.value.content });
  }
  const edits: SearchReplace[] = [];
  let state: 'outside' | 'search' | 'replace' = 'outside';
  let search: string[] = [];
  let replace: string[] = [];
  // The fence the reply opened around its blocks (outside any block), while it is open.
  let wrapper: string | null = null;
  for (const [index, line] of text.split('\n').entries()) {
    if (state === 'outside') {
      if (START.test(line)) [state, search, replace] = ['search', [], []];
      else if (FENCE_LINE.test(line)) wrapper = wrapper === null ? FENCE_LINE.exec(line)![1]! : closes(line, wrapper) ? null : wrapper;
      continue;
    }
    if (state === 'search') {
      if (MIDDLE.test(line)) state = 'replace';
      else if (START.test(line) || END.test(line))
        return fail(`line ${index + 1}: a SEARCH block must be followed by ======= before ${END.test(line) ? '>>>>>>> REPLACE' : 'another <<<<<<< SEARCH'}`);
      else search.push(line);
      continue;
    }
    if (END.test(line)) {
      if (search.every((l) => l.trim() === ''))
        return fail(`block ${edits.length + 1}: its SEARCH part is empty; copy the exact lines to replace from the file`);
      edits.push({ search: search.join('\n'), replace: replace.join('\n') });
      state = 'outside';
    } else if (START.test(line) || MIDDLE.test(line)) {
      return fail(`line ${index + 1}: block ${edits.length + 1} is not closed with >>>>>>> REPLACE`);
    } else replace.push(line);
  }
  if (state !== 'outside')
    return fail(`block ${edits.length + 1} is not closed with >>>>>>> REPLACE (was the reply cut off?); reply with every block complete`);
  // A replacement's own fences are its content (a README's code block ends with one). Only a wrapper the
  // reply opened before its blocks and never closed after them was closed inside the last one: that
  // replacement's last line, when it closes the wrapper, is the wrapper's and not the file's.
  const last = edits.at(-1);
  if (wrapper !== null && last) {
    const lines = last.replace.split('\n');
    if (closes(lines.at(-1) ?? '', wrapper)) last.replace = lines.slice(0, -1).join('\n');
  }
  return ok({ kind: 'edits', path: filePath, edits });
}

/** Whether a line closes the fence `opened` began: the same character, at least as many, nothing after. */
function closes(line: string, opened: string): boolean {
  const marker = CLOSING_FENCE.exec(line)?.[1];
  return marker !== undefined && marker[0] === opened[0] && marker.length >= opened.length;
}
