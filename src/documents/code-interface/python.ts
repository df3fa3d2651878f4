/**
 * The interface of a Python module, read from its tree: its public names (those of `__all__` when it
 * lists them, else every name not starting with `_`; dunder methods are public) — functions and classes
 * with their decorators and whole signatures (parameters over several lines, defaults, annotations), the
 * first line of each docstring, a class's public attributes and methods, module constants, and the imports
 * that bring in a name `__all__` lists (a package's re-exports). A body
 * is `...`; a function's nested helpers, private names and `if __name__ == "__main__":` are left out. A
 * value too long to show is `...` (never part of one).
 */
import type { SyntaxNode } from '../../ground/syntax/index.ts';
import { commentsAbove, cutOf, indentAt, textWith, tooLong } from './source-text.ts';

const isComment = (node: SyntaxNode): boolean => node.type === 'comment';
const isDunder = (name: string): boolean => /^__\w+__$/.test(name);

export function pythonInterface(root: SyntaxNode, source: string): string {
  const all = exportedByAll(root);
  const isPublic = (name: string): boolean => (all ? all.has(name) : !name.startsWith('_') || (isDunder(name) && name !== '__all__'));
  let out = '';
  let lastWasValue = false;
  for (const node of root.namedChildren) {
    const shown = node ? (reExport(node, all) ?? member(node, source, isPublic)) : null;
    if (!node || shown === null) continue;
    const isValue = node.type === 'expression_statement';
    // Constants one under another; a blank line around a function or a class.
    if (out !== '') out += isValue && lastWasValue ? '\n' : '\n\n';
    out += [...commentsAbove(node, isComment, ''), shown].join('\n');
    lastWasValue = isValue;
  }
  return out;
}

/**
 * An import that brings in a name `__all__` lists (`from .api import evaluate, parse` in a package's
 * `__init__.py`): the module re-exports it, so it is part of the interface, as written. Null otherwise.
 */
function reExport(node: SyntaxNode, all: ReadonlySet<string> | null): string | null {
  if (!all || (node.type !== 'import_from_statement' && node.type !== 'import_statement')) return null;
  // Each imported name as the module knows it: the alias when there is one.
  const names = node.namedChildren.flatMap((child) => {
    if (child?.type === 'aliased_import') return [child.childForFieldName('alias')?.text ?? ''];
    return child?.type === 'dotted_name' && node.childForFieldName('module_name')?.id !== child.id ? [child.text] : [];
  });
  return names.some((name) => all.has(name)) ? node.text : null;
}

/** A module's or a class's statement as its interface, or null when it is no part of it. */
function member(node: SyntaxNode, source: string, isPublic: (name: string) => boolean): string | null {
  const definition = node.type === 'decorated_definition' ? node.childForFieldName('definition') : node;
  if (definition?.type === 'function_definition' || definition?.type === 'class_definition') {
    const name = definition.childForFieldName('name')?.text ?? '';
    if (!isPublic(name)) return null;
    return definition.type === 'class_definition' ? classOf(node, definition, source) : functionOf(node, definition, source);
  }
  const assignment = node.type === 'expression_statement' ? node.namedChildren[0] : null;
  if (assignment?.type !== 'assignment') return null;
  const left = assignment.childForFieldName('left');
  if (left?.type !== 'identifier' || !isPublic(left.text)) return null;
  const right = assignment.childForFieldName('right');
  const cuts = right && tooLong(right.text) ? [cutOf(right, '...')] : [];
  return textWith(source, node.startIndex, node.endIndex, cuts);
}

/**
 * A function's decorators and signature, then its docstring's first line, or `...`. A constructor
 * (`__init__`) keeps the public attributes it sets (`self.name = …`): they are the instance's interface.
 */
function functionOf(node: SyntaxNode, definition: SyntaxNode, source: string): string {
  const body = definition.childForFieldName('body')!;
  const header = source.slice(node.startIndex, body.startIndex).trimEnd();
  const indent = indentAt(source, body.startIndex);
  const docstring = docstringOf(body);
  const attributes = definition.childForFieldName('name')?.text === '__init__' ? attributesSet(body, source) : [];
  const lines = [...(docstring === null ? [] : [docstring]), ...attributes];
  return lines.length === 0 ? `${header} ...` : `${header}\n${lines.map((line) => indent + line).join('\n')}`;
}

/** The public attributes a body sets at its top level (`self.name = value`, `self.name: T = value`), a long value as `...`. */
function attributesSet(body: SyntaxNode, source: string): string[] {
  return body.namedChildren.flatMap((statement) => {
    const assignment = statement?.type === 'expression_statement' ? statement.namedChildren[0] : null;
    const target = assignment?.type === 'assignment' ? assignment.childForFieldName('left') : null;
    const name = target?.type === 'attribute' && target.childForFieldName('object')?.text === 'self' ? target.childForFieldName('attribute')?.text : undefined;
    if (!assignment || !name || name.startsWith('_')) return [];
    const value = assignment.childForFieldName('right');
    const short = value && !value.text.includes('\n') && value.text.length <= 60;
    return [textWith(source, assignment.startIndex, assignment.endIndex, value && !short ? [cutOf(value, '...')] : [])];
  });
}

/** A class's decorators and header, its docstring's first line, then its public members, each at its indentation. */
function classOf(node: SyntaxNode, definition: SyntaxNode, source: string): string {
  const body = definition.childForFieldName('body')!;
  const header = source.slice(node.startIndex, body.startIndex).trimEnd();
  const indent = indentAt(source, body.startIndex);
  const docstring = docstringOf(body);
  const members = body.namedChildren.flatMap((m) => {
    const shown = m ? member(m, source, (name) => !name.startsWith('_') || isDunder(name)) : null;
    return m && shown !== null ? [[...commentsAbove(m, isComment, indent), indent + shown].join('\n')] : [];
  });
  const lines = [...(docstring === null ? [] : [indent + docstring]), ...members];
  return lines.length === 0 ? `${header} ...` : `${header}\n${lines.join('\n')}`;
}

/** The first line of a body's docstring, quoted as written; null when it has none. */
function docstringOf(body: SyntaxNode): string | null {
  const first = body.namedChildren[0];
  const string = first?.type === 'expression_statement' ? first.namedChildren[0] : null;
  if (string?.type !== 'string') return null;
  const open = string.children.find((c) => c?.type === 'string_start')?.text ?? '"""';
  const quote = open.replace(/^[rRuUbBfF]+/, '');
  const content = string.children.find((c) => c?.type === 'string_content')?.text ?? '';
  const line =
    content
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? '';
  return `${open}${line}${quote}`;
}

/** The names `__all__` lists, when it is a literal list or tuple of strings; null otherwise. */
function exportedByAll(root: SyntaxNode): Set<string> | null {
  for (const node of root.namedChildren) {
    const assignment = node?.type === 'expression_statement' ? node.namedChildren[0] : null;
    if (assignment?.type !== 'assignment' || assignment.childForFieldName('left')?.text !== '__all__') continue;
    const value = assignment.childForFieldName('right');
    if (value?.type !== 'list' && value?.type !== 'tuple') return null;
    const names = value.namedChildren.map((item) => (item?.type === 'string' ? item.children.find((c) => c?.type === 'string_content')?.text : undefined));
    return names.every((n) => n !== undefined) ? new Set(names as string[]) : null;
  }
  return null;
}
