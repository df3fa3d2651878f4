/**
 * The interface of a Go file, read from its tree: its package clause and what it exports (names that
 * start with a capital letter; every name, to a file of its own package or of a package main) — functions
 * and methods of exported types with whole signatures and `{ … }` for a body, type declarations and
 * aliases (a struct's unexported fields left out, with their comments), and exported constants and
 * variables (a value too long to show is `…`). Doc comments right above stay.
 */
import type { SyntaxNode } from '../../ground/syntax/index.ts';
import { type Cut, commentsAbove, cutOf, indentAt, leftOut, textWith, tooLong } from './source-text.ts';

const isComment = (node: SyntaxNode): boolean => node.type === 'comment';
const capitalised = (name: string | undefined): boolean => name !== undefined && /^\p{Lu}/u.test(name);
/** Whether a name is shown: exported, or any name to a file of the same package. */
type Visible = (name: string | undefined) => boolean;

/**
 * `samePackage`: a file of the same package (its folder) sees every top-level name; so does anyone of a
 * `package main`, which nothing imports — its top level is all the interface it has (what README.md
 * documents, what main_test.go calls).
 */
export function goInterface(root: SyntaxNode, source: string, view: { samePackage: boolean } = { samePackage: false }): string {
  const main = root.namedChildren.find((n) => n?.type === 'package_clause')?.text.trim() === 'package main';
  const visible: Visible = view.samePackage || main ? (name) => name !== undefined : capitalised;
  const parts: string[] = [];
  for (const node of root.namedChildren) {
    const shown = node ? declaration(node, source, visible) : null;
    if (node && shown !== null) parts.push([...commentsAbove(node, isComment, ''), shown].join('\n'));
  }
  return parts.join('\n\n');
}

function declaration(node: SyntaxNode, source: string, visible: Visible): string | null {
  switch (node.type) {
    case 'package_clause':
      return node.text;
    case 'function_declaration':
      return visible(node.childForFieldName('name')?.text) ? withoutBody(node, source) : null;
    case 'method_declaration':
      return visible(node.childForFieldName('name')?.text) && visible(receiverType(node)) ? withoutBody(node, source) : null;
    case 'type_declaration':
    case 'const_declaration':
    case 'var_declaration':
      return specs(node, source, visible);
    default:
      return null;
  }
}

const withoutBody = (node: SyntaxNode, source: string): string => {
  const body = node.childForFieldName('body');
  return textWith(source, node.startIndex, node.endIndex, body ? [cutOf(body, '{ … }')] : []);
};

/** The type a method's receiver names: `(t *Table)` → Table. */
function receiverType(method: SyntaxNode): string | undefined {
  const receiver = method.childForFieldName('receiver')?.namedChildren.find((c) => c?.type === 'parameter_declaration');
  return receiver?.childForFieldName('type')?.text.replace(/^\*/, '').replace(/\[.*$/, '');
}

/** A type, const or var declaration with its visible specs only (null when none is), each whole or with a long value as `…`. */
function specs(node: SyntaxNode, source: string, visible: Visible): string | null {
  // `type ID = string` is a type_alias, not a type_spec.
  const all = node.namedChildren.filter((c): c is SyntaxNode => c !== null && (c.type.endsWith('_spec') || c.type === 'type_alias'));
  const kept = all.filter((spec) => spec.childrenForFieldName('name').some((name) => visible(name?.text)));
  if (kept.length === 0) return null;
  const keyword = node.type.replace('_declaration', '');
  const render = (spec: SyntaxNode) => textWith(source, spec.startIndex, spec.endIndex, specCuts(spec, source, visible));
  const grouped = source.slice(node.startIndex, all[0]!.startIndex).includes('(');
  if (!grouped) return `${keyword} ${render(kept[0]!)}`;
  const indent = indentAt(source, kept[0]!.startIndex);
  return `${keyword} (\n${kept.map((spec) => [...commentsAbove(spec, isComment, indent), indent + render(spec)].join('\n')).join('\n')}\n)`;
}

function specCuts(spec: SyntaxNode, source: string, visible: Visible): Cut[] {
  const value = spec.childForFieldName('value');
  if (value && tooLong(value.text)) return [cutOf(value, '…')];
  const struct = spec.childForFieldName('type');
  const fields = struct?.type === 'struct_type' ? struct.namedChildren.find((c) => c?.type === 'field_declaration_list') : null;
  if (!fields) return [];
  return fields.namedChildren
    .filter(
      (f): f is SyntaxNode =>
        f?.type === 'field_declaration' && !f.childrenForFieldName('name').some((n) => visible(n?.text)) && f.childrenForFieldName('name').length > 0,
    )
    .map((f) => leftOut(f, source, isComment));
}
