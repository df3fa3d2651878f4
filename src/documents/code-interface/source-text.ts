/**
 * Cutting a parsed source's text: a node's text with some of its parts replaced (a body by `{ … }`),
 * the comments right above a node, the indentation of its line. Shared by the languages' interfaces.
 */
import type { SyntaxNode } from '../../ground/syntax/index.ts';

/** A part of the source replaced by other text. */
export interface Cut {
  start: number;
  end: number;
  with: string;
}

/** A value longer than this (lines, or characters) is shown as an ellipsis, whole or not at all. */
export const VALUE_LINES = 15;
export const VALUE_CHARS = 1200;

export const cutOf = (node: SyntaxNode, replacement: string): Cut => ({ start: node.startIndex, end: node.endIndex, with: replacement });

/** `source[start, end)` with each cut (inside it, none overlapping another) replaced. */
export function textWith(source: string, start: number, end: number, cuts: readonly Cut[]): string {
  const sorted = [...cuts].sort((a, b) => a.start - b.start);
  let out = '';
  let at = start;
  for (const cut of sorted) {
    out += source.slice(at, cut.start) + cut.with;
    at = cut.end;
  }
  return out + source.slice(at, end);
}

export const tooLong = (text: string): boolean => text.length > VALUE_CHARS || text.split('\n').length > VALUE_LINES;

/** The whitespace that starts the line the index is on. */
export function indentAt(source: string, index: number): string {
  const lineStart = source.lastIndexOf('\n', index - 1) + 1;
  return /^[ \t]*/.exec(source.slice(lineStart, index))![0];
}

/**
 * The comments right above a node (no blank line between them and it, nor between each other), whole —
 * they document what the node is — each line re-indented to `indent`.
 */
export function commentsAbove(node: SyntaxNode, isComment: (n: SyntaxNode) => boolean, indent: string): string[] {
  const comments: SyntaxNode[] = [];
  let below = node;
  for (let above = node.previousNamedSibling; above && isComment(above); above = above.previousNamedSibling) {
    if (below.startPosition.row - above.endPosition.row > 1) break;
    // A comment on the line of the code before it belongs to that code.
    if (above.previousNamedSibling && above.previousNamedSibling.endPosition.row === above.startPosition.row) break;
    comments.unshift(above);
    below = above;
  }
  return comments.flatMap((c) => c.text.split('\n').map((line, i) => reindented(line, indent, i === 0 ? 0 : c.startPosition.column)));
}

/**
 * A comment's line at `indent`, less the indentation the comment had where it stood (`column`): a block
 * comment's inner lines (` * …`) keep their one space, and an example's own indentation inside it stays
 * (p-limit's `@example` blocks, indented by tabs in an unstarred comment).
 */
function reindented(line: string, indent: string, column: number): string {
  if (line.trim() === '') return '';
  const lead = /^[ \t]*/.exec(line)![0];
  const text = line.slice(Math.min(lead.length, column)).trimEnd();
  return `${indent}${text}`;
}

/**
 * The cut that leaves a member out of its parent's text, with the comments right above it (a private
 * field's doc comment goes with it) and the space between it and what comes before (no blank lines pile
 * up where members were), and a `,` that ends it (a Rust field).
 */
export function leftOut(node: SyntaxNode, source: string, isComment: (n: SyntaxNode) => boolean): Cut {
  let first = node;
  for (let above = node.previousNamedSibling; above && isComment(above); above = above.previousNamedSibling) {
    if (first.startPosition.row - above.endPosition.row > 1) break;
    first = above;
  }
  const before = first.previousSibling;
  const start = before ? before.endIndex : Math.max(source.lastIndexOf('\n', first.startIndex - 1), 0);
  const end = source[node.endIndex] === ',' ? node.endIndex + 1 : node.endIndex;
  return { start, end, with: '' };
}
