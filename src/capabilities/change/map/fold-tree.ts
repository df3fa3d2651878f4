/**
 * The file tree within a token budget: listed whole (render-tree.ts) when it fits; otherwise the folders
 * that tell the least about the code are folded into one line each that says what they hold — `doc/:
 * … 195 files in 5 folders, not listed (.rst 170, .py 25)` — first folders without a source file (docs,
 * changelog fragments, data), then folders whose sources are all examples, docs or benchmarks, then
 * those of tests, then the rest, the biggest first, until the tree fits. Every source file outside those stays listed; the `read` step lists a folder it is asked
 * for. Pure.
 */
import path from 'node:path';
import { countTokens } from 'gpt-tokenizer';
import { languageOf } from '../../../ground/syntax/index.ts';
import { byFolder, FOLDED, folderLine, renderTree } from './render-tree.ts';
import { isTestPath } from './test-layout.ts';

interface Folder {
  path: string;
  names: string[];
  tokens: number;
}

export function foldedTree(files: readonly string[], maxTokens: number): { tree: string; folded: number } {
  const full = renderTree(files);
  if (countTokens(full) <= maxTokens) return { tree: full, folded: 0 };
  const folders = new Map<string, Folder>();
  for (const file of files) {
    const dir = path.posix.dirname(file);
    const folder = folders.get(dir) ?? folders.set(dir, { path: dir, names: [], tokens: 0 }).get(dir)!;
    folder.names.push(path.posix.basename(file));
  }
  for (const folder of folders.values()) folder.tokens = countTokens(folderLine(folder.path, folder.names)) + 1;
  let total = [...folders.values()].reduce((sum, f) => sum + f.tokens, 0);
  const folds = new Map<string, string>();
  for (const candidate of candidates(files)) {
    if (total <= maxTokens) break;
    if ([...folds.keys()].some((done) => inside(candidate.path, done))) continue;
    const within = [...folders.values()].filter((f) => inside(f.path, candidate.path));
    const inner = [...folds.keys()].filter((done) => inside(done, candidate.path));
    const line = summary(
      candidate.path,
      files.filter((f) => inside(f, candidate.path)),
    );
    const saved =
      within.filter((f) => !inner.some((done) => inside(f.path, done))).reduce((sum, f) => sum + f.tokens, 0) +
      inner.reduce((sum, done) => sum + countTokens(folds.get(done)!) + 1, 0);
    const cost = countTokens(line) + 1;
    if (saved <= cost) continue;
    for (const done of inner) folds.delete(done);
    folds.set(candidate.path, line);
    total -= saved - cost;
  }
  const lines = new Map<string, string>();
  for (const folder of folders.values())
    if (![...folds.keys()].some((done) => inside(folder.path, done))) lines.set(folder.path, folderLine(folder.path, folder.names));
  for (const [folder, line] of folds) lines.set(folder, line);
  return {
    tree: [...lines.keys()]
      .sort(byFolder)
      .map((key) => lines.get(key)!)
      .join('\n'),
    folded: folds.size,
  };
}

/** Every folder but the root, least telling first: no source file, then examples and docs, then tests, then the rest; the biggest first within each. */
function candidates(files: readonly string[]): { path: string; rank: number; size: number }[] {
  const subtrees = new Map<string, string[]>();
  for (const file of files) {
    const parts = file.split('/');
    for (let depth = 1; depth < parts.length; depth++) {
      const dir = parts.slice(0, depth).join('/');
      (subtrees.get(dir) ?? subtrees.set(dir, []).get(dir)!).push(file);
    }
  }
  const aside = (file: string) => /(^|\/)(examples?|fixtures?|example_scripts|testdata|docs?|benchmarks?|bench)\//.test(file);
  const rank = (within: string[]): number => {
    const sources = within.filter((f) => languageOf(f) !== null);
    if (sources.length === 0) return 0;
    if (sources.every(aside)) return 1;
    return sources.every((f) => aside(f) || isTestPath(f)) ? 2 : 3;
  };
  return [...subtrees]
    .map(([dir, within]) => ({ path: dir, rank: rank(within), size: within.length }))
    .sort((a, b) => a.rank - b.rank || b.size - a.size || a.path.localeCompare(b.path));
}

/** What a folded folder holds: its files, its folders, and how many of each kind. */
function summary(folder: string, within: readonly string[]): string {
  const kinds = new Map<string, number>();
  for (const file of within) {
    const extension = path.posix.extname(file) || path.posix.basename(file);
    kinds.set(extension, (kinds.get(extension) ?? 0) + 1);
  }
  const folders = new Set(within.map((f) => path.posix.dirname(f)).filter((dir) => dir !== folder)).size;
  const top = [...kinds]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, 4)
    .map(([kind, n]) => `${kind} ${n}`);
  return `${folderLine(folder, []).replace(/: $/, '')}${FOLDED}${within.length} files${folders > 0 ? ` in ${folders + 1} folders` : ''}, not listed (${top.join(', ')}${kinds.size > 4 ? ', …' : ''})`;
}

const inside = (file: string, folder: string): boolean => file === folder || file.startsWith(`${folder}/`);
