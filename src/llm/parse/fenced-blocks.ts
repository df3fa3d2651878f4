/** Finds fenced code blocks and, for each, the file path written on the line before it (if any). */
export interface FencedBlock {
  lang: string;
  /** A path found in the info string (```js src/a.js) or on the last text line before the fence. */
  label: string | null;
  content: string;
}

const FENCE = /^(`{3,}|~{3,})[ \t]*([^\n]*)\n([\s\S]*?)\n?^\1[ \t]*$/gm;

export function fencedBlocks(text: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  let previousEnd = 0;
  for (const match of text.matchAll(FENCE)) {
    const info = (match[2] ?? '').trim().split(/\s+/).filter(Boolean);
    const lang = info[0] ?? '';
    const between = text.slice(previousEnd, match.index);
    const label = pathLike(info.slice(1).join(' ')) ?? pathLike(lastLine(between)) ?? (info.length === 1 ? pathLikeFile(lang) : null);
    const content = match[3] ?? '';
    blocks.push({ lang: label && lang === label ? '' : lang, label, content: content.endsWith('\n') ? content : content + '\n' });
    previousEnd = (match.index ?? 0) + match[0].length;
  }
  return blocks;
}

const OPENING_FENCE = /^(`{3,}|~{3,})[ \t]*([^\n]*)$/m;

/**
 * A fence opened after the last complete block and never closed: the reply was cut off inside a code
 * block (or a block is malformed). A bare fence line with nothing after it is a stray closer, not an
 * opening, and is ignored.
 */
export function unclosedFence(text: string): { lang: string } | null {
  let tail = text;
  for (const match of text.matchAll(FENCE)) tail = text.slice((match.index ?? 0) + match[0].length);
  const opening = OPENING_FENCE.exec(tail);
  if (!opening) return null;
  const info = (opening[2] ?? '').trim();
  const after = tail.slice(opening.index + opening[0].length).trim();
  if (info === '' && after === '') return null;
  return { lang: info.split(/\s+/)[0] ?? '' };
}

const lastLine = (text: string): string => text.trimEnd().split('\n').pop() ?? '';

/** "**src/a.js**", "### `src/a.js`", "File: src/a.js", "title=src/a.js" → "src/a.js". */
function pathLike(line: string): string | null {
  const cleaned = line
    .replace(/^[#>*\s-]+/, '')
    .replace(/^(file(name)?|path|title)\s*[:=]\s*/i, '')
    .replace(/[*`"':]+/g, '')
    .trim();
  return /^[\w@.\-/]+\.[\w]+$/.test(cleaned) || /^[\w.\-/]*\/[\w.-]+$/.test(cleaned) ? cleaned : null;
}

/** An info string that is itself a file name (```src/a.js). */
const pathLikeFile = (word: string): string | null => (/[/.]/.test(word) && /\.\w+$/.test(word) ? word : null);
