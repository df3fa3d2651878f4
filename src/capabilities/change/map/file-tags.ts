/**
 * One file's tags, read with tree-sitter: its definitions (name, kind, line, and the header lines as
 * written — a signature, never a body) and the names its code uses (outside comments and strings), counted. Definitions nested in a
 * function's body are left out (a local helper is no part of the file's interface); a class's members
 * stay. This is what the map caches per blob (tag-cache.ts) and ranks (rank-files.ts).
 */

import type { MapLanguage } from './tag-queries.ts';
import { languageTools, type SyntaxNode } from './tree-sitter.ts';

// Plain types here (their schema, for the cache: tag-cache.ts): this module runs in the parse workers,
// which load nothing they do not need.
export interface Definition {
  name: string;
  kind: string;
  /** 1-based line of the definition's first line. */
  line: number;
  /** The definition's header as written: its first line through the line its body starts on. */
  header: string[];
}

export interface FileTags {
  definitions: Definition[];
  /** Each referenced name and how often. */
  references: [string, number][];
}

/** A header longer than this many lines is cut (a long parameter list): its first lines and an ellipsis. */
const HEADER_LINES = 4;
/** Characters of one header line. */
const LINE_CHARS = 160;
/** Kinds whose bodies hold no part of the interface: definitions inside them are local. */
const BODIED = new Set(['function', 'method']);

export async function fileTags(language: MapLanguage, text: string): Promise<FileTags> {
  const tools = await languageTools(language);
  const tree = tools.parser.parse(text);
  if (!tree) return { definitions: [], references: [] };
  try {
    const lines = text.split('\n');
    const matches = tools.tags.matches(tree.rootNode);
    const prose: [number, number][] = [];
    const definitionMatches: typeof matches = [];
    for (const match of matches) {
      const only = match.captures.length === 1 ? match.captures[0]! : null;
      if (only?.name === 'text') prose.push([only.node.startIndex, only.node.endIndex]);
      else definitionMatches.push(match);
    }
    prose.sort((a, b) => a[0] - b[0]);
    const definitions = definitionsIn(definitionMatches, lines);
    // A definition's own name is no reference to another file's.
    const named = new Set(definitionMatches.flatMap((m) => m.captures.filter((c) => c.name === 'name').map((c) => c.node.startIndex)));
    return { definitions, references: namesInCode(text, prose, named) };
  } finally {
    tree.delete();
  }
}

/** The names in the code — outside comments and strings (`prose`, in order), not where a definition is named — counted. */
function namesInCode(text: string, prose: readonly (readonly [number, number])[], named: ReadonlySet<number>): [string, number][] {
  const counts = new Map<string, number>();
  let skip = 0;
  for (const match of text.matchAll(NAME)) {
    const at = match.index;
    while (skip < prose.length && prose[skip]![1] <= at) skip++;
    if ((skip < prose.length && prose[skip]![0] <= at) || named.has(at)) continue;
    counts.set(match[0], (counts.get(match[0]) ?? 0) + 1);
  }
  return [...counts];
}

const NAME = /[A-Za-z_$][A-Za-z0-9_$]*/g;

interface Found {
  definition: Definition;
  start: number;
  end: number;
}

function definitionsIn(matches: { captures: { name: string; node: SyntaxNode }[] }[], lines: string[]): Definition[] {
  const found: Found[] = [];
  const seen = new Set<string>();
  for (const match of matches) {
    const name = match.captures.find((c) => c.name === 'name' || c.name === 'property')?.node;
    const node = match.captures.find((c) => c.name.startsWith('definition.'));
    if (!name || !node) continue;
    const kind = node.name.slice('definition.'.length);
    const key = `${node.node.startIndex}:${name.text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    found.push({
      definition: {
        name: kind === 'exports' ? 'module.exports' : name.text,
        kind,
        line: node.node.startPosition.row + 1,
        header: headerOf(node.node, kind, lines),
      },
      start: node.node.startIndex,
      end: node.node.endIndex,
    });
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: Found[] = [];
  const enclosing: Found[] = [];
  for (const item of found) {
    while (enclosing.length > 0 && enclosing.at(-1)!.end <= item.start) enclosing.pop();
    if (enclosing.some((outer) => BODIED.has(outer.definition.kind) && outer.end >= item.end && outer !== item)) continue;
    kept.push(item);
    enclosing.push(item);
  }
  return kept.map((item) => item.definition);
}

/** The lines from the definition's first through the one its body starts on (a module.exports: its first lines). */
function headerOf(node: SyntaxNode, kind: string, lines: string[]): string[] {
  const first = node.startPosition.row;
  const body = bodyOf(node);
  // A body that starts a line of its own (Python's block, a brace on the next line) is not part of the header.
  const bodyRow = body ? body.startPosition.row - (body.startPosition.row > first && startsItsLine(body, lines) ? 1 : 0) : first;
  const last = kind === 'exports' ? node.endPosition.row : bodyRow;
  const rows = lines.slice(first, last + 1).map((line) => clip(line.trimEnd()));
  return rows.length > HEADER_LINES ? [...rows.slice(0, HEADER_LINES - 1), `${leading(rows[HEADER_LINES - 1]!)}…`] : rows;
}

/** The body of a definition: its own, or that of the function or class it is assigned. */
function bodyOf(node: SyntaxNode): SyntaxNode | null {
  const own = node.childForFieldName('body');
  if (own) return own;
  const value = node.childForFieldName('value') ?? node.childForFieldName('right');
  return value?.childForFieldName('body') ?? null;
}

const startsItsLine = (node: SyntaxNode, lines: string[]): boolean => (lines[node.startPosition.row] ?? '').slice(0, node.startPosition.column).trim() === '';
const clip = (line: string): string => (line.length <= LINE_CHARS ? line : `${line.slice(0, LINE_CHARS - 1)}…`);
const leading = (line: string): string => /^\s*/.exec(line)![0];
