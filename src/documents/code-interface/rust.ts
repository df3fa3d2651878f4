/**
 * The interface of a Rust file, read from its tree: its inner doc comment (`//!`) and its items with a
 * visibility (`pub`, `pub(crate)`: what another module may use) — functions with whole signatures
 * (generics, lifetimes, `where` clauses) and `{ … }` for a body; structs without their private fields;
 * enums, type aliases and `pub use` whole; traits with default bodies as `{ … }`; `pub mod` blocks with
 * their own public items; a constant's value whole, or `…` when too long; an exported macro by name.
 * An `impl` shows what it adds: an inherent impl its public functions, a trait impl (`impl Display for
 * Table`) its functions and associated items, all of which callers see. Doc comments and attributes
 * right above an item stay; private items, tests (`#[cfg(test)] mod tests`) and bodies do not.
 */
import type { SyntaxNode } from '../../ground/syntax/index.ts';
import { type Cut, cutOf, leftOut, textWith, tooLong } from './source-text.ts';

const isInnerDoc = (node: SyntaxNode): boolean => node.type === 'line_comment' && node.namedChildren.some((c) => c?.type === 'inner_doc_comment_marker');
const isComment = (node: SyntaxNode): boolean =>
  (node.type === 'line_comment' || node.type === 'block_comment' || node.type === 'attribute_item') && !isInnerDoc(node);
const isPublic = (node: SyntaxNode): boolean => node.namedChildren.some((c) => c?.type === 'visibility_modifier');
const named = (nodes: (SyntaxNode | null)[]): SyntaxNode[] => nodes.filter((n): n is SyntaxNode => n !== null);

/** The row a node ends on: a line comment's node takes in its line break, so ends at column 0 of the next row. */
const lastRow = (node: SyntaxNode): number => (node.endPosition.column === 0 ? node.endPosition.row - 1 : node.endPosition.row);

/** The doc comments and attributes right above a top-level item (none after a blank line, nor one ending the code before it). */
function above(node: SyntaxNode): string[] {
  const found: SyntaxNode[] = [];
  let below = node;
  for (let prev = node.previousNamedSibling; prev && isComment(prev); prev = prev.previousNamedSibling) {
    if (below.startPosition.row - lastRow(prev) > 1) break;
    if (prev.previousNamedSibling && lastRow(prev.previousNamedSibling) === prev.startPosition.row) break;
    found.unshift(prev);
    below = prev;
  }
  return found.flatMap((c) =>
    c.text
      .trimEnd()
      .split('\n')
      .map((line) => (line.trim().startsWith('*') ? ` ${line.trim()}` : line.trim())),
  );
}

export function rustInterface(root: SyntaxNode, source: string): string {
  const top = named(root.namedChildren);
  const docs = top.filter(isInnerDoc).map((c) => c.text.trimEnd());
  const parts = docs.length > 0 ? [docs.join('\n')] : [];
  for (const node of top) {
    const cuts = itemCuts(node, source, false);
    if (cuts !== null) parts.push([...above(node), textWith(source, node.startIndex, node.endIndex, cuts)].join('\n'));
  }
  return parts.join('\n\n');
}

/**
 * How an item is shown, as the cuts that make its text its interface; null when it is not shown at all.
 * `ownerPublic`: an item of a trait, or of a trait's impl, is as public as the trait, whatever its own visibility.
 */
function itemCuts(node: SyntaxNode, source: string, ownerPublic: boolean): Cut[] | null {
  const body = node.childForFieldName('body');
  switch (node.type) {
    case 'function_item':
      return isPublic(node) || ownerPublic ? (body ? [cutOf(body, '{ … }')] : []) : null;
    case 'function_signature_item':
    case 'associated_type':
      return [];
    case 'struct_item':
    case 'union_item':
      return isPublic(node) ? privateFields(body, source) : null;
    case 'enum_item':
    case 'type_item':
    case 'use_declaration':
      return isPublic(node) ? [] : null;
    case 'const_item':
    case 'static_item': {
      if (!isPublic(node) && !ownerPublic) return null;
      const value = node.childForFieldName('value');
      return value && tooLong(value.text) ? [cutOf(value, '…')] : [];
    }
    case 'trait_item':
      return isPublic(node) && body ? membersCuts(body, source, () => true, true) : null;
    case 'mod_item':
      if (!isPublic(node)) return null;
      return body ? membersCuts(body, source, (member) => itemCuts(member, source, false) !== null) : [];
    case 'impl_item':
      return implCuts(node, source);
    case 'macro_definition':
      return node.previousNamedSibling?.type === 'attribute_item' && /^#\[macro_export/.test(node.previousNamedSibling.text)
        ? [{ start: node.childForFieldName('name')!.endIndex, end: node.endIndex, with: ' { … }' }]
        : null;
    default:
      return null;
  }
}

/** An impl with what it adds to callers, or null when it adds nothing they can use (private functions only). */
function implCuts(node: SyntaxNode, source: string): Cut[] | null {
  const body = node.childForFieldName('body');
  if (!body) return null;
  const ofTrait = node.childForFieldName('trait') !== null;
  const shown = (member: SyntaxNode) => itemCuts(member, source, ofTrait) !== null;
  if (!named(body.namedChildren).some((member) => !isComment(member) && shown(member))) return null;
  return membersCuts(body, source, shown, ofTrait);
}

/** The cuts inside a body of items: those not shown left out (with their comments), the others' own cuts. */
function membersCuts(body: SyntaxNode, source: string, shown: (member: SyntaxNode) => boolean, ownerPublic = false): Cut[] {
  const cuts: Cut[] = [];
  for (const member of named(body.namedChildren)) {
    if (isComment(member)) continue;
    const own = shown(member) ? itemCuts(member, source, ownerPublic) : null;
    if (own === null) cuts.push(leftOut(member, source, isComment));
    else cuts.push(...own);
  }
  return cuts;
}

/** A struct's private fields, each left out with its doc comment; a tuple struct is shown whole. */
function privateFields(body: SyntaxNode | null, source: string): Cut[] {
  if (body?.type !== 'field_declaration_list') return [];
  return named(body.namedChildren)
    .filter((field) => field.type === 'field_declaration' && !isPublic(field))
    .map((field) => leftOut(field, source, isComment));
}
