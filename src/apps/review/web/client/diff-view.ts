/** A unified diff, its lines marked as added, removed, hunk or file headers. */
import { h, scrollable } from './dom.ts';

/** A line's kind; inside a hunk an added line may itself start "++", so headers are known by where they are. */
const kindOf = (line: string, inHunk: boolean): string => {
  if (line.startsWith('@@')) return 'hunk';
  if (!inHunk) return line.startsWith('+++') || line.startsWith('---') || line.startsWith('diff ') ? 'file' : '';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'del';
  return '';
};

export function diffView(text: string): HTMLPreElement {
  const pre = scrollable('pre', { class: 'diff', 'aria-label': 'diff' });
  let inHunk = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('diff ')) inHunk = false;
    const kind = kindOf(line, inHunk);
    if (kind === 'hunk') inHunk = true;
    pre.append(h('span', { class: kind }, line), '\n');
  }
  return pre;
}
