/**
 * The repository's file tree as the map shows it: every path, however many, compressed rather than cut —
 * one line per folder (`src/_pytest/: fixtures.py main.py runner.py`), the root's files first, and a
 * run of numbered names written once (`mod{1..40}.js` for mod1.js … mod40.js). Nothing is dropped: each
 * path can be read back from the lines (readTree does, for the tests). A tree over its budget is
 * folded by fold-tree.ts, which says what each folded folder holds.
 */
import path from 'node:path';

/** At least this many consecutive numbers make a run worth writing as a range. */
const RUN = 3;

export function renderTree(files: readonly string[]): string {
  const folders = new Map<string, string[]>();
  for (const file of files) {
    const folder = path.posix.dirname(file);
    const names = folders.get(folder);
    if (names) names.push(path.posix.basename(file));
    else folders.set(folder, [path.posix.basename(file)]);
  }
  const order = [...folders.keys()].sort(byFolder);
  return order.map((folder) => folderLine(folder, folders.get(folder)!)).join('\n');
}

/** The root first, then folders in code-point order (one line each). */
export const byFolder = (a: string, b: string): number => (a === '.' ? -1 : b === '.' ? 1 : a < b ? -1 : a > b ? 1 : 0);

/** One folder's line: `folder/: names` (the root's files without a folder). */
export const folderLine = (folder: string, names: string[]): string => `${folder === '.' ? '' : `${quoteFolder(folder)}/: `}${compress(names).join(' ')}`;

/** A folded folder's line (fold-tree.ts): what it holds, not listed — readTree passes over it. */
export const FOLDED = ': … ';

/** The names of one folder, sorted, with runs of numbered names (same prefix and suffix) written as ranges. */
function compress(names: string[]): string[] {
  const groups = new Map<string, { prefix: string; suffix: string; numbers: number[]; width: number }>();
  const plain: string[] = [];
  for (const name of names) {
    const match = /^(.*?)(\d+)(\D*)$/.exec(name);
    // A zero-padded number (007) keeps its width: only numbers written plainly are grouped.
    if (!match || (match[2]!.length > 1 && match[2]!.startsWith('0')) || NEEDS_QUOTES.test(name)) {
      plain.push(name);
      continue;
    }
    const key = `${match[1]}\0${match[3]}`;
    const group = groups.get(key) ?? { prefix: match[1]!, suffix: match[3]!, numbers: [], width: 0 };
    group.numbers.push(Number(match[2]));
    groups.set(key, group);
  }
  const entries: { sortKey: string; text: string }[] = plain.map((name) => ({ sortKey: name, text: quote(name) }));
  for (const group of groups.values()) {
    const numbers = [...new Set(group.numbers)].sort((a, b) => a - b);
    let start = 0;
    while (start < numbers.length) {
      let end = start;
      while (end + 1 < numbers.length && numbers[end + 1] === numbers[end]! + 1) end++;
      const name = (n: number) => `${group.prefix}${n}${group.suffix}`;
      if (end - start + 1 >= RUN) entries.push({ sortKey: name(numbers[start]!), text: `${group.prefix}{${numbers[start]}..${numbers[end]}}${group.suffix}` });
      else for (let i = start; i <= end; i++) entries.push({ sortKey: name(numbers[i]!), text: quote(name(numbers[i]!)) });
      start = end + 1;
    }
  }
  return entries.sort((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0)).map((e) => e.text);
}

/** A name with a space, a brace, a quote or a control character is quoted, so a line still splits into names and no name forges a line. */
const NEEDS_QUOTES = /[\s{}"\\\p{Cc}]/u;
const quote = (name: string): string => (NEEDS_QUOTES.test(name) ? JSON.stringify(name) : name);
/** A folder is quoted when it could be misread: a line break or other control character, a quote, or `/: `. */
const quoteFolder = (folder: string): string => (/[\p{Cc}"\\]|\/: /u.test(folder) || folder.startsWith('"') ? JSON.stringify(folder) : folder);

/** Every path the rendered tree holds: the inverse of renderTree. */
export function readTree(tree: string): string[] {
  const paths: string[] = [];
  for (const line of tree.split('\n')) {
    if (line === '' || line.includes(FOLDED)) continue;
    const folder = /^("(?:[^"\\]|\\.)*"|.*?)\/: /.exec(line);
    const prefix = folder ? `${folder[1]!.startsWith('"') ? (JSON.parse(folder[1]!) as string) : folder[1]}/` : '';
    const rest = folder ? line.slice(folder[0].length) : line;
    for (const token of rest.match(/"(?:[^"\\]|\\.)*"|\S+/g) ?? []) {
      if (token.startsWith('"')) {
        paths.push(prefix + (JSON.parse(token) as string));
        continue;
      }
      const range = /^(.*)\{(\d+)\.\.(\d+)\}(.*)$/.exec(token);
      if (!range) paths.push(prefix + token);
      else for (let n = Number(range[2]); n <= Number(range[3]); n++) paths.push(`${prefix}${range[1]}${n}${range[4]}`);
    }
  }
  return paths;
}
