/**
 * The interface of a Go file, read from its tree: its package clause and what it exports (names that
 * start with a capital letter) — functions and methods of exported types with whole signatures and
 * `{ … }` for a body, type declarations and aliases (a struct's unexported fields left out, with their
 * comments), and exported constants and variables (a value too long to show is `…`). Doc comments
 * right above stay.
 */
import type { SyntaxNode } from '../../ground/syntax/index.ts';
import { type Cut, commentsAbove, cutOf, indentAt, leftOut, textWith, tooLong } from './source-text.ts';

const isComment = (node: SyntaxNode): boolean => node.type === 'comment';
const exported = (name: string | undefined): boolean => name !== undefined && /^\p{Lu}/u.test(name);

export function goInterface(root: SyntaxNode, source: string): string {
  const parts: string[] = [];
  for (const node of root.namedChildren) {
    const shown = node ? declaration(node, source) : null;
    if (node && shown !== null) parts.push([...commentsAbove(node, isComment, ''), shown].join('\n'));
  }
  return parts.join('\n\n');
}

function declaration(node: SyntaxNode, source: string): string | null {
  switch (node.type) {
    case 'package_clause':
      return node.text;
    case 'function_declaration':
      return exported(node.childForFieldName('name')?.text) ? withoutBody(node, source) : null;
    case 'method_declaration':
      return exported(node.childForFieldName('name')?.text) && exported(receiverType(node)) ? withoutBody(node, source) : null;
    case 'type_declaration':
    case 'const_declaration':
    case 'var_declaration':
      return specs(node, source);
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

/** A type, const or var declaration with its exported specs only (null when none is), each whole or with a long value as `…`. */
function specs(node: SyntaxNode, source: string): string | null {
  // `type ID = string` is a type_alias, not a type_spec.
  const all = node.namedChildren.filter((c): c is SyntaxNode => c !== null && (c.type.endsWith('_spec') || c.type === 'type_alias'));
  const kept = all.filter((spec) => spec.childrenForFieldName('name').some((name) => exported(name?.text)));
  if (kept.length === 0) return null;
  const keyword = node.type.replace('_declaration', '');
  const render = (spec: SyntaxNode) => textWith(source, spec.startIndex, spec.endIndex, specCuts(spec, source));
  const grouped = source.slice(node.startIndex, all[0]!.startIndex).includes('(');
  if (!grouped) return `${keyword} ${render(kept[0]!)}`;
  const indent = indentAt(source, kept[0]!.startIndex);
  return `${keyword} (\n${kept.map((spec) => [...commentsAbove(spec, isComment, indent), indent + render(spec)].join('\n')).join('\n')}\n)`;
}

function specCuts(spec: SyntaxNode, source: string): Cut[] {
  const value = spec.childForFieldName('value');
  if (value && tooLong(value.text)) return [cutOf(value, '…')];
  const struct = spec.childForFieldName('type');
  const fields = struct?.type === 'struct_type' ? struct.namedChildren.find((c) => c?.type === 'field_declaration_list') : null;
  if (!fields) return [];
  return fields.namedChildren
    .filter(
      (f): f is SyntaxNode =>
        f?.type === 'field_declaration' && !f.childrenForFieldName('name').some((n) => exported(n?.text)) && f.childrenForFieldName('name').length > 0,
    )
    .map((f) => leftOut(f, source, isComment));
}
