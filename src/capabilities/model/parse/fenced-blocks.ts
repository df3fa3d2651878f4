/**
 * Finds fenced code blocks and, for each, the file path it is labelled with (if any). Read line by line,
 * as CommonMark does: a fence may be indented (inside a list item); a block is closed by a bare fence of
 * the same kind at least as long; a shorter fence inside it is content (a README's examples inside a
 * ```` block).
 *
 * A fence with an info string met inside an open block cannot close it: the block before was left
 * open. When the line just above that fence names a file, the boundary is plain — the earlier block
 * ends before that path line — and it is recovered; otherwise the two blocks run together and the scan
 * says so (`merged`), for the reply to be re-asked rather than one file committed holding another.
 */
import { labelAbove, labelInFirstLine, labelInInfo, labelLine, nameAsFirstLine } from './file-labels.ts';

export interface FencedBlock {
  lang: string;
  /** The file path the block is labelled with (see file-labels.ts), or null. */
  label: string | null;
  content: string;
}

export interface ScannedBlock extends FencedBlock {
  /** The text between the previous block (or the start) and this block's opening fence. */
  before: string;
}

export interface FenceScan {
  blocks: ScannedBlock[];
  /** A fence opened and never closed: the reply was cut off inside a block (or a block is malformed). */
  unclosed: { lang: string } | null;
  /** Why two blocks run together and cannot be told apart, or null. */
  merged: string | null;
}

const FENCE_LINE = /^([ \t]*)(`{3,}|~{3,})[ \t]*(.*?)[ \t]*$/;

interface Open {
  indent: number;
  fence: string;
  info: string;
  content: string[];
  before: string[];
  line: number;
}

export function scanFences(text: string): FenceScan {
  const blocks: ScannedBlock[] = [];
  let merged: string | null = null;
  let between: string[] = [];
  let open: Open | null = null;
  /** The line each block was closed on (its closing fence, or the line before the fence that ended it). */
  const closedAt: number[] = [];
  const finish = (block: Open, content: string[], line: number) => {
    blocks.push(makeBlock(block, content));
    closedAt.push(line);
  };
  const lines = text.split('\n');
  for (const [index, line] of lines.entries()) {
    const fence = FENCE_LINE.exec(line);
    // A backtick fence's info string holds no backtick (```js``` is inline code, not a fence).
    const isFence = fence !== null && !(fence[2]!.startsWith('`') && fence[3]!.includes('`'));
    if (!open) {
      if (isFence) open = { indent: fence[1]!.length, fence: fence[2]!, info: fence[3]!, content: [], before: between, line: index + 1 };
      else between.push(line);
      continue;
    }
    const sameKind = isFence && fence[2]![0] === open.fence[0] && fence[2]!.length >= open.fence.length;
    if (sameKind && fence[3] === '') {
      finish(open, open.content, index);
      open = null;
      between = [];
      continue;
    }
    if (sameKind) {
      // An opening fence inside an open block: the block before it was left open.
      const last = lastNonBlank(open.content);
      if (last >= 0 && labelLine(open.content[last]!) !== null) {
        finish(open, open.content.slice(0, last), index - 1);
        open = { indent: fence[1]!.length, fence: fence[2]!, info: fence[3]!, content: [], before: open.content.slice(last), line: index + 1 };
        continue;
      }
      merged ??= `a code block opens on line ${index + 1} ("${line.trim()}") inside the block opened on line ${open.line}, which was never closed`;
    }
    open.content.push(dedent(line, open.indent));
  }
  let unclosed: { lang: string } | null = null;
  // A bare fence with nothing after it is a stray closer, not an opening.
  if (open && !(open.info === '' && open.content.every((l) => l.trim() === ''))) unclosed = { lang: open.info.split(/\s+/)[0] ?? '' };
  // A block that ends on another file's path line may have taken that file's opening fence for its
  // closer: then that file's code follows as loose text, up to a bare fence. (A .gitignore ending in
  // `.env`, followed by the next file's own label, is not that.)
  blocks.forEach((block, index) => {
    const tail = block.content.trimEnd().split('\n');
    const label = labelLine(tail.at(-1) ?? '');
    if (label === null || label === block.label || tail.length < 2) return;
    const after = lines.slice(closedAt[index]! + 1);
    const next = after.findIndex((l) => FENCE_LINE.test(l));
    const loose = (next === -1 ? after : after.slice(0, next)).join('\n');
    const bare = next === -1 || FENCE_LINE.exec(after[next]!)![3] === '';
    if (bare && loose.trim() !== '' && labelAbove(loose) === null) {
      merged ??= `the block${block.label ? ` of ${block.label}` : ''} ends with the path line of another file ("${tail.at(-1)!.trim()}"): its closing fence is missing`;
    }
  });
  return { blocks, unclosed, merged };
}

export function fencedBlocks(text: string): FencedBlock[] {
  return scanFences(text).blocks.map(({ lang, label, content }) => ({ lang, label, content }));
}

/**
 * A fence opened after the last complete block and never closed: the reply was cut off inside a code
 * block (or a block is malformed). A bare fence line with nothing after it is a stray closer, not an
 * opening, and is ignored.
 */
export function unclosedFence(text: string): { lang: string } | null {
  return scanFences(text).unclosed;
}

function makeBlock(open: Open, lines: string[]): ScannedBlock {
  const info = open.info.trim().split(/\s+/).filter(Boolean);
  const lang = info[0] ?? '';
  const body = trimTrailingBlank(lines).join('\n');
  const content = body === '' ? '\n' : body + '\n';
  const before = open.before.join('\n');
  const label = labelInInfo(info) ?? labelAbove(before, lang) ?? labelInFirstLine(content);
  if (label === null) {
    const named = nameAsFirstLine(content, lang);
    if (named) return { lang, label: named.label, content: named.content, before };
  }
  return { lang: label && lang === label ? '' : lang, label, content, before };
}

const lastNonBlank = (lines: readonly string[]): number => {
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i]!.trim() !== '') return i;
  return -1;
};

/** Blank lines before the closing fence are not the file's: the content ends with one newline. */
const trimTrailingBlank = (lines: string[]): string[] => lines.slice(0, lastNonBlank(lines) + 1);

/** The opening fence's indentation, removed from each content line (as far as the line has it). */
function dedent(line: string, indent: number): string {
  let i = 0;
  while (i < indent && (line[i] === ' ' || line[i] === '\t')) i++;
  return line.slice(i);
}
