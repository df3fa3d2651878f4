/**
 * `sopworks review --diff`: a change run's diff against its base in the terminal — the branch, a line per
 * file (code, then the tests it added, then its documents), each file's patch, and the commands to
 * merge it and clean up. Every line the repository or a model wrote is cleaned (ground/terminal-text.ts).
 */
import pc from 'picocolors';
import { cleanLine } from '../../ground/terminal-text.ts';
import type { ChangeFile, ChangeView } from './change-diff.ts';

const STATUS: Record<ChangeFile['status'], string> = { added: 'A', modified: 'M', deleted: 'D', renamed: 'R' };
const KIND: Record<ChangeFile['kind'], string> = { code: 'code', test: 'test', document: 'doc' };

/** "+12 −3", or "binary". */
export const lineCounts = (file: Pick<ChangeFile, 'added' | 'removed'>): string =>
  file.added === null || file.removed === null ? 'binary' : `+${file.added} −${file.removed}`;

/** What the change is, in one line: how many files, lines, and which tests it added. */
export function changeTotals(view: Pick<ChangeView, 'files'>): string {
  const added = view.files.reduce((n, f) => n + (f.added ?? 0), 0);
  const removed = view.files.reduce((n, f) => n + (f.removed ?? 0), 0);
  const tests = view.files.filter((f) => f.kind === 'test' && f.status !== 'deleted');
  const files = `${view.files.length} file${view.files.length === 1 ? '' : 's'} changed, +${added} −${removed}`;
  return `${files}; ${tests.length === 0 ? 'no test added or changed' : `tests: ${tests.map((t) => t.path).join(', ')}`}`;
}

function patchLines(patch: string): string[] {
  let inHunk = false;
  return patch.split('\n').map((raw) => {
    const line = cleanLine(raw);
    if (line.startsWith('diff --git ')) inHunk = false;
    if (line.startsWith('@@')) {
      inHunk = true;
      return pc.cyan(line);
    }
    if (!inHunk) return pc.bold(line);
    return line.startsWith('+') ? pc.green(line) : line.startsWith('-') ? pc.red(line) : line;
  });
}

export function renderChangeText(view: ChangeView): string {
  const c = (text: string) => cleanLine(text);
  const width = Math.max(0, ...view.files.map((f) => f.path.length));
  const lines = [
    pc.bold(`Change of ${c(view.repo)} on branch ${c(view.branch)}, from ${c(view.baseName)} (${view.base.slice(0, 12)})`),
    `  ${changeTotals(view)}`,
    ...view.files.map(
      (f) => `  ${KIND[f.kind].padEnd(4)} ${STATUS[f.status]} ${c(f.path).padEnd(width)}  ${lineCounts(f)}${f.from ? `  (from ${c(f.from)})` : ''}`,
    ),
  ];
  if (view.problem) lines.push('', pc.red(c(view.problem)));
  for (const file of view.files) if (file.patch) lines.push('', ...patchLines(file.patch));
  if (view.cut) lines.push('', pc.yellow('… the diff is longer than shown here: see it whole with the review command below.'));
  lines.push(
    '',
    `Review it:  ${c(view.commands.review)}`,
    `Merge it:   ${c(view.commands.merge)}   (with ${c(view.baseName)} checked out in ${c(view.repo)})`,
    `Clean up:   ${c(view.commands.cleanUp)}   (after the merge; the run's record in its .sopworks/ goes with the work tree)`,
  );
  return lines.join('\n');
}
