/** A unified diff, its lines marked as added, removed, hunk or file headers. */
import { h, scrollable } from './dom.ts';

const kindOf = (line: string): string => {
  if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('diff ')) return 'file';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'del';
  if (line.startsWith('@@')) return 'hunk';
  return '';
};

export function diffView(text: string): HTMLPreElement {
  const pre = scrollable('pre', { class: 'diff', 'aria-label': 'diff' });
  for (const line of text.split('\n')) pre.append(h('span', { class: kindOf(line) }, line), '\n');
  return pre;
}
