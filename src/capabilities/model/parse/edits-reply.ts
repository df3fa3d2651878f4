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
  for (const [index, line] of text.split('\n').entries()) {
    if (state === 'outside') {
      if (START.test(line)) [state, search, replace] = ['search', [], []];
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
  // A fence line that closes a block written inside ``` is not part of the replacement.
  for (const edit of edits)
    edit.replace = edit.replace
      .split('\n')
      .filter((l, i, all) => !(i === all.length - 1 && FENCE_LINE.test(l)))
      .join('\n');
  return ok({ kind: 'edits', path: filePath, edits });
}
