/**
 * The interface of a Java file, read from its tree: its package and its types — classes, interfaces,
 * enums, records, annotation types — each with its header as written (annotations, type parameters,
 * `extends`, `implements`) and the members the dependent may use: from another package what is public
 * or protected (an interface's members unless private); from the same package (its folder) every one
 * not private. Methods and constructors keep their whole
 * signatures (parameters over many lines, `throws`) with `{ … }` for a body; fields keep their value, or
 * `…` when it is too long; nested types are read the same way; an enum constant's own body is `{ … }`.
 * Private members, initializer blocks, imports and bodies are left out. Javadoc right above stays.
 */
import type { SyntaxNode } from '../../ground/syntax/index.ts';
import { type Cut, commentsAbove, cutOf, leftOut, textWith, tooLong } from './source-text.ts';

const TYPES = new Set(['class_declaration', 'interface_declaration', 'enum_declaration', 'record_declaration', 'annotation_type_declaration']);
const CALLABLES = new Set(['method_declaration', 'constructor_declaration', 'compact_constructor_declaration']);
const FIELDS = new Set(['field_declaration', 'constant_declaration']);
const BODIES = new Set(['class_body', 'interface_body', 'enum_body', 'enum_body_declarations', 'annotation_type_body']);

const isComment = (node: SyntaxNode): boolean => node.type === 'block_comment' || node.type === 'line_comment';
const named = (nodes: (SyntaxNode | null)[]): SyntaxNode[] => nodes.filter((n): n is SyntaxNode => n !== null);
const modifiersOf = (node: SyntaxNode): string[] =>
  named(node.namedChildren)
    .filter((c) => c.type === 'modifiers')
    .flatMap((c) => c.children.map((word) => word?.type ?? ''));

/**
 * Whether a member is seen: from the same package (its folder), anything not private; from another,
 * only what is public or protected — but an interface's members are public unless they say private.
 */
type Seen = (member: SyntaxNode, inInterface: boolean) => boolean;

export function javaInterface(root: SyntaxNode, source: string, view: { samePackage: boolean } = { samePackage: false }): string {
  const seen: Seen = (member, inInterface) => {
    const words = modifiersOf(member);
    if (words.includes('private')) return false;
    return view.samePackage || inInterface || words.includes('public') || words.includes('protected');
  };
  const parts: string[] = [];
  for (const node of named(root.namedChildren)) {
    if (node.type === 'package_declaration') parts.push(node.text);
    else if (TYPES.has(node.type) && seen(node, false))
      parts.push([...commentsAbove(node, isComment, ''), textWith(source, node.startIndex, node.endIndex, typeCuts(node, source, seen))].join('\n'));
  }
  return parts.join('\n\n');
}

/** The cuts that make a type's text its interface: in its body, what is private or a body left out. */
function typeCuts(node: SyntaxNode, source: string, seen: Seen): Cut[] {
  const body = node.childForFieldName('body');
  return body ? bodyCuts(body, source, seen, node.type === 'interface_declaration' || node.type === 'annotation_type_declaration') : [];
}

function bodyCuts(body: SyntaxNode, source: string, seen: Seen, inInterface: boolean): Cut[] {
  const cuts: Cut[] = [];
  for (const member of named(body.namedChildren)) {
    if (isComment(member)) continue;
    const own = memberCuts(member, source, seen, inInterface);
    if (own === null) cuts.push(leftOut(member, source, isComment));
    else cuts.push(...own);
  }
  return cuts;
}

/** A member's own cuts when it is shown, null when it is left out. */
function memberCuts(member: SyntaxNode, source: string, seen: Seen, inInterface: boolean): Cut[] | null {
  if (BODIES.has(member.type)) return bodyCuts(member, source, seen, inInterface);
  if (member.type === 'enum_constant') {
    const body = member.childForFieldName('body');
    return body ? [cutOf(body, '{ … }')] : [];
  }
  if (!seen(member, inInterface)) return null;
  if (TYPES.has(member.type)) return typeCuts(member, source, seen);
  if (CALLABLES.has(member.type)) {
    const body = member.childForFieldName('body');
    return body ? [cutOf(body, '{ … }')] : [];
  }
  if (FIELDS.has(member.type) || member.type === 'annotation_type_element_declaration') {
    return named(member.namedChildren)
      .filter((d) => d.type === 'variable_declarator')
      .flatMap((d) => {
        const value = d.childForFieldName('value');
        return value && tooLong(value.text) ? [cutOf(value, '…')] : [];
      });
  }
  // An initializer block (`static { … }`) runs; it is no part of what another class calls.
  return null;
}
