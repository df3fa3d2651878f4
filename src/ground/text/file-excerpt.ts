/**
 * A file too long to show whole, shown in part where it matters: its first lines (imports, a changelog's
 * newest entries), the lines around the definitions of the names asked about (a function, a class, a
 * method), and its last lines (where a new definition is often added) — in file order, each gap said as
 * the lines it leaves out, so a model quoting the file (a SEARCH block) quotes only what it was shown, and
 * knows what it was not. Pure.
 */

/** Characters of a file a prompt shows whole (an edit's, QA's, a manual review's); a longer one is shown in part. */
export const SHOWN_CHARS = 24_000;

export interface Excerpt {
  text: string;
  /** Whether the whole file is in `text`. */
  whole: boolean;
  /** The names asked about whose definition was found, and those not found in the file. */
  found: string[];
  missing: string[];
}

/** The share of the limit the file's start takes when names are asked about, and its end. */
const HEAD_SHARE = 0.25;
const TAIL_SHARE = 0.1;
/** Lines shown before a definition: its comment or decorator. */
const LEAD_LINES = 3;

/** Words that open a definition in the languages a repository is likely to hold. */
const DEFINES =
  '(?:export\\s+)?(?:default\\s+)?(?:pub(?:\\([^)]*\\))?\\s+)?(?:async\\s+)?(?:static\\s+)?(?:def|class|function\\*?|func|fn|interface|type|struct|enum|trait|impl|const|let|var|module|object)\\b';

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The 0-based line where `name` is defined: a line that opens a definition naming it (`def name`, `class
 * Name`, `func (r *T) Name(`, `export function name`), else one that starts with it as a method or a
 * property does (`name(…) {`, `name = …`, `name: …`), or one that assigns it to an object (`res.name = …`) —
 * the least indented of them (a module's, before a function's local); `A.b` is `b` after `A`'s definition.
 * -1: not found.
 */
export function definitionLine(lines: readonly string[], name: string, from = 0): number {
  const parts = name.split(/\.|::|#/).filter(Boolean);
  if (parts.length > 1) {
    const outer = definitionLine(lines, parts.slice(0, -1).join('.'), from);
    return outer === -1 ? -1 : definitionLine(lines, parts.at(-1)!, outer + 1);
  }
  const word = escaped(name);
  const opens = opensDefinition(name);
  const starts = new RegExp(`^\\s*(?:(?:public|private|protected|static|async|get|set|override|readonly)\\s+)*\\*?${word}\\s*(?:\\(|=|:|<)`);
  // A property assigned on an object: `res.redirect = function redirect(…)`, `Foo.prototype.bar = …`.
  const assigned = new RegExp(`^\\s*(?:[\\w$]+\\.)+${word}\\s*=(?!=)`);
  // The least indented match, the first of those: a module's definition before a local of a function.
  let best = -1;
  let depth = Number.POSITIVE_INFINITY;
  for (let i = from; i < lines.length; i++) {
    const line = lines[i]!;
    if (!(opens.test(line) || starts.test(line) || assigned.test(line))) continue;
    const indent = line.length - line.trimStart().length;
    if (indent < depth) [best, depth] = [i, indent];
  }
  return best;
}

/** The keyword, a Go method's receiver, then the name: `def name`, `func (r *T) Name`, `export default function name`. */
const opensDefinition = (name: string): RegExp => new RegExp(`^\\s*(?:@\\S+\\s+)*${DEFINES}\\s*(?:\\([^)]*\\)\\s*)?\\*?\\s*${escaped(name)}(?![\\w$])`);

/** The file whole when it fits `limit` characters, else its start, the parts around `names`' definitions (and the 0-based `at` lines) and its end. */
export function excerpt(content: string, limit: number, names: readonly string[] = [], at: readonly number[] = []): Excerpt {
  const unique = [...new Set(names.map((n) => n.trim()).filter(Boolean))];
  if (content.length <= limit) return { text: content, whole: true, found: unique, missing: [] };
  const lines = content.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const anchors = unique.map((name) => {
    const defined = definitionLine(lines, name);
    return { name, line: defined !== -1 ? defined : mentionLine(lines, name) };
  });
  const found = anchors.filter((a) => a.line !== -1);
  const shown = new Set<number>();
  // Lines from `start` on, while the characters allow and the next part has not begun.
  const take = (start: number, budget: number, stopAt = lines.length) => {
    let used = 0;
    for (let i = start; i < stopAt && i < lines.length; i++) {
      if (shown.has(i)) continue;
      const cost = lines[i]!.length + 1;
      if (used + cost > budget) break;
      shown.add(i);
      used += cost;
    }
  };
  const marks = [...found.map((a) => a.line), ...at.filter((line) => line < lines.length)];
  const starts = [...new Set(marks.map((line) => Math.max(0, line - LEAD_LINES)))].sort((a, b) => a - b);
  const head = starts.length > 0 ? Math.floor(limit * HEAD_SHARE) : Math.floor(limit * (1 - TAIL_SHARE));
  const tail = Math.floor(limit * TAIL_SHARE);
  take(0, head);
  // The end: its last lines within the tail's share.
  let tailStart = lines.length;
  for (let used = 0; tailStart > 0 && used + lines[tailStart - 1]!.length + 1 <= tail; tailStart--) used += lines[tailStart - 1]!.length + 1;
  for (let i = tailStart; i < lines.length; i++) shown.add(i);
  // Each definition its part of what is left, up to the next one.
  const left = limit - head - tail;
  starts.forEach((start, k) => take(start, Math.floor(left / starts.length), starts[k + 1] ?? tailStart));
  // What the parts left unused (they met, or ran into the end) goes on from the start.
  const used = [...shown].reduce((n, i) => n + lines[i]!.length + 1, 0);
  if (used < limit) take(0, limit - used);
  const parts: string[] = [];
  let gap: number | null = null;
  for (let i = 0; i < lines.length; i++) {
    if (shown.has(i)) {
      if (gap !== null) parts.push(skipped(gap, i - 1, lines.length));
      gap = null;
      parts.push(lines[i]!);
    } else gap ??= i;
  }
  if (gap !== null) parts.push(skipped(gap, lines.length - 1, lines.length));
  return {
    text: `${parts.join('\n')}\n`,
    whole: false,
    found: found.map((a) => a.name),
    missing: anchors.filter((a) => a.line === -1).map((a) => a.name),
  };
}

/** How far above a mention its section's heading is looked for. */
const HEADING_REACH = 40;

/**
 * For a name the file does not define — a README's or a changelog's `parse_float`, a function a module
 * only calls — the 0-based line of its first mention outside a list of links (a table of contents), or
 * the heading of that mention's section (Markdown's `#`, reStructuredText's underline) when one is near
 * above it. -1: not mentioned.
 */
export function mentionLine(lines: readonly string[], name: string): number {
  const word = new RegExp(`(?<![\\w$])${escaped(name)}(?![\\w$])`);
  const first = lines.findIndex((line) => word.test(line) && !/^\s*[-*+]\s*\[[^\]]*\]\([^)]*\)\s*$/.test(line));
  if (first === -1) return -1;
  for (let i = first; i >= Math.max(0, first - HEADING_REACH); i--) {
    if (/^#{1,6}\s/.test(lines[i]!)) return i;
    if (i > 0 && /^([=\-~^"'`#*+])\1{2,}\s*$/.test(lines[i]!) && lines[i - 1]!.trim() !== '') return i - 1;
  }
  return first;
}

/** A file of prose (docs, a README, a changelog): its names are mentioned, not defined. */
export const isProse = (file: string): boolean =>
  /\.(md|markdown|mdx|rst|txt|adoc)$/i.test(file) || /(^|\/)(README|CHANGELOG|CHANGES|HISTORY|NEWS)$/i.test(file);

const skipped = (from: number, to: number, count: number): string =>
  from === to ? `… (line ${from + 1} of ${count} not shown)` : `… (lines ${from + 1}–${to + 1} of ${count} not shown)`;

/**
 * The names a task's words mention that the file defines (`Path.convert`, `is_dash`, `the Path class`): the
 * parts of a long file its editor is shown, besides its start and end. A member named with its owner comes
 * first (and its owner goes), then a name shaped like code (`parseArgs`, `is_dash`), then a plain word —
 * within each, one the file opens with `def`, `function`, `class`… before one it only assigns or takes as
 * a parameter (`parse_float: ParseFloat = float`); language keywords and built-in types are no names; at
 * most eight, so that each part has room (a task threading a parameter through tomli's parser names
 * nine functions, and four left out the one it most changed). In `prose` (isProse), the code-shaped names
 * it mentions, each at its section's heading (mentionLine).
 */
export function namesMentioned(description: string, content: string, prose = false): string[] {
  const lines = content.split('\n');
  // `self.resolve_path` and `this.parse` name a member of the class at hand: the member is the name.
  const mentioned = (description.match(/[A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)*/g) ?? []).map((w) => w.replace(/^(?:self|this|cls)(?:\.|::|#)/, ''));
  const words = [...new Set(mentioned)].filter((w) => w.length >= 3 && !NOT_NAMES.has(w.toLowerCase()));
  const shape = (w: string): number => (/\.|::|#/.test(w) ? 0 : /[A-Z_$]/.test(w.slice(1)) ? 1 : 2);
  // Prose defines nothing: a name shaped like code that it mentions is what it is about (its section).
  const at = new Map(words.map((w) => [w, prose ? (shape(w) < 2 ? mentionLine(lines, w) : -1) : definitionLine(lines, w)]));
  const opened = (w: string): number => (opensDefinition(w.split(/\.|::|#/).at(-1)!).test(lines[at.get(w)!] ?? '') ? 0 : 1);
  const defined = words.filter((w) => at.get(w) !== -1).sort((a, b) => shape(a) - shape(b) || opened(a) - opened(b));
  const owners = new Set(defined.filter((w) => shape(w) === 0).map((w) => w.split(/\.|::|#/)[0]!));
  return defined.filter((w) => !owners.has(w)).slice(0, MOST_NAMES);
}

const MOST_NAMES = 8;

/** Words of a task's prose that name no definition worth showing: common words, keywords, built-in types. */
const NOT_NAMES = new Set(
  [
    'the and for with that this from add new when not its are one all each value default function class method test tests file true false null none string',
    'if else elif for while return def import with try except finally raise pass break continue lambda yield async await self this super var let const in is or',
    'str int float bool bytes list dict set tuple object type len print range number boolean array map error any void undefined',
  ]
    .join(' ')
    .split(' '),
);
