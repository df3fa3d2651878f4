/**
 * The interface of a JavaScript or TypeScript module, read from its tree: what it exports (ES exports,
 * and CommonJS `module.exports` / `exports.x` with the declarations they name), each as written — whole
 * signatures, whatever lines their parameters span — with function bodies as `{ … }`, a class's private
 * members (`#x`, `private`) left out, and a value too long to show as `…` (never part of one). Types,
 * interfaces and enums a TypeScript module exports are its interface: shown whole. Comments right above
 * an export stay; nothing else of the file does.
 */
import type { SyntaxNode } from '../../ground/syntax/index.ts';
import { type Cut, commentsAbove, cutOf, indentAt, textWith, tooLong } from './source-text.ts';

const FUNCTIONS = new Set([
  'function_declaration',
  'generator_function_declaration',
  'function_expression',
  'function',
  'generator_function',
  'arrow_function',
  'method_definition',
]);
const CLASSES = new Set(['class_declaration', 'abstract_class_declaration', 'class']);
/** Nodes holding a value under a field: the value is shown whole, or as `…` when too long. */
const VALUE_FIELDS: Record<string, string> = {
  variable_declarator: 'value',
  field_definition: 'value',
  public_field_definition: 'value',
  assignment_expression: 'right',
  pair: 'value',
};
const DECLARATIONS = new Set([
  'function_declaration',
  'generator_function_declaration',
  'class_declaration',
  'abstract_class_declaration',
  'lexical_declaration',
  'variable_declaration',
]);

const isComment = (node: SyntaxNode): boolean => node.type === 'comment';

export function javascriptInterface(root: SyntaxNode, source: string): string {
  const render = (node: SyntaxNode): string => textWith(source, node.startIndex, node.endIndex, cutsIn(node, source));
  const shown = (node: SyntaxNode): string => [...commentsAbove(node, isComment, ''), render(node)].join('\n');
  const top = root.namedChildren.filter((node): node is SyntaxNode => node !== null);
  const named = new Set([...namedByCommonJs(top), ...namedByEsExports(top)]);
  const parts: string[] = [];
  for (const node of top) {
    if (node.type === 'export_statement' || node.type === 'ambient_declaration' || commonJsExport(node)) parts.push(shown(node));
    else if (DECLARATIONS.has(node.type) && declaredNames(node).some((name) => named.has(name))) parts.push(shown(node));
  }
  if (parts.length === 0) return wrappedModule(root, shown);
  return parts.join('\n');
}

/**
 * A module that assigns its exports inside a wrapper — a UMD or IIFE file that runs in a browser as a
 * script and in Node as a module (trial mdpreview50: three such files read as "(it exports nothing)";
 * mathiasbynens/base64 assigns `freeModule.exports = base64`) — shows the functions and classes it
 * declares, wherever the wrapper holds them (`function f() {}`, `var f = function () {}`): what it offers
 * is among them. Empty for a module with no such export (a script).
 */
function wrappedModule(root: SyntaxNode, shown: (node: SyntaxNode) => string): string {
  let wrapped = false;
  const declared: SyntaxNode[] = [];
  const visit = (node: SyntaxNode): void => {
    if (node.type === 'assignment_expression' && /(^|\.)exports(\.[\w$]+)?$/.test(node.childForFieldName('left')?.text ?? '')) wrapped = true;
    // A declaration's own body holds its helpers, not the module's offer.
    if (node.type === 'function_declaration' || node.type === 'generator_function_declaration' || node.type === 'class_declaration') {
      declared.push(node);
      return;
    }
    if ((node.type === 'variable_declaration' || node.type === 'lexical_declaration') && declaresFunction(node)) {
      declared.push(node);
      return;
    }
    for (const child of node.namedChildren) if (child) visit(child);
  };
  visit(root);
  if (!wrapped || declared.length === 0) return '';
  return ['// its exports are assigned inside a wrapper: the functions and classes it declares', ...declared.map(shown)].join('\n');
}

/** `var f = function () {}`, `const g = () => {}`, `let C = class {}`: a declaration of one function or class. */
function declaresFunction(node: SyntaxNode): boolean {
  const declarators = node.namedChildren.filter((d): d is SyntaxNode => d?.type === 'variable_declarator');
  const value = declarators.length === 1 ? declarators[0]!.childForFieldName('value') : null;
  return value !== null && (FUNCTIONS.has(value.type) || CLASSES.has(value.type));
}

/** The cuts that make a node's text its interface: bodies, private members, long values. */
function cutsIn(node: SyntaxNode, source: string): Cut[] {
  const cuts: Cut[] = [];
  const visit = (n: SyntaxNode): void => {
    const body = n.childForFieldName('body');
    if (FUNCTIONS.has(n.type) && body) {
      if (body.type === 'statement_block') cuts.push(cutOf(body, '{ … }'));
      else if (body.text.includes('\n') || body.text.length > 100) cuts.push(cutOf(body, '…'));
      else visit(body);
      for (const child of n.namedChildren) if (child && child.startIndex < body.startIndex) visit(child);
      return;
    }
    if (CLASSES.has(n.type) && body) {
      cuts.push(cutOf(body, classBody(body, source)));
      for (const child of n.namedChildren) if (child && child.startIndex < body.startIndex) visit(child);
      return;
    }
    const valueField = VALUE_FIELDS[n.type];
    const value = valueField ? n.childForFieldName(valueField) : null;
    for (const child of n.namedChildren) {
      if (!child) continue;
      if (value && child.startIndex === value.startIndex && !FUNCTIONS.has(value.type) && !CLASSES.has(value.type)) {
        const inner = cutsIn(value, source);
        if (tooLong(textWith(source, value.startIndex, value.endIndex, inner))) cuts.push(cutOf(value, value.type === 'object' ? objectKeys(value) : '…'));
        else cuts.push(...inner);
      } else visit(child);
    }
  };
  visit(node);
  return cuts;
}

/** An object too long to show, as its keys (`{ enabled: …, red: …, bold() { … } }`): what a module exporting it offers. */
function objectKeys(object: SyntaxNode): string {
  const keys = object.namedChildren.flatMap((entry) => {
    if (entry?.type === 'shorthand_property_identifier') return [entry.text];
    if (entry?.type === 'pair') return [`${entry.childForFieldName('key')?.text ?? '?'}: …`];
    if (entry?.type === 'method_definition') return [`${entry.childForFieldName('name')?.text ?? '?'}() { … }`];
    if (entry?.type === 'spread_element') return ['...…'];
    return [];
  });
  return `{ ${keys.join(', ')} }`;
}

/** A class's body with its public members only, each at its own indentation. */
function classBody(body: SyntaxNode, source: string): string {
  const members = body.namedChildren.filter((m): m is SyntaxNode => m !== null && !isComment(m) && m.type !== 'class_static_block' && !isPrivate(m));
  if (members.length === 0) return '{}';
  const lines = members.flatMap((m) => {
    const indent = indentAt(source, m.startIndex);
    // A field's or a signature's `;` is the class body's, not the member's.
    const end = source[m.endIndex] === ';' ? m.endIndex + 1 : m.endIndex;
    return [...commentsAbove(m, isComment, indent), indent + textWith(source, m.startIndex, end, cutsIn(m, source))];
  });
  return `{\n${lines.join('\n')}\n${indentAt(source, body.endIndex - 1)}}`;
}

function isPrivate(member: SyntaxNode): boolean {
  return member.namedChildren.some((c) => c?.type === 'private_property_identifier' || (c?.type === 'accessibility_modifier' && c.text === 'private'));
}

/** `module.exports = …`, `module.exports.x = …` or `exports.x = …`. */
function commonJsExport(node: SyntaxNode): SyntaxNode | null {
  if (node.type !== 'expression_statement') return null;
  const assignment = node.namedChildren[0];
  if (assignment?.type !== 'assignment_expression') return null;
  const left = assignment.childForFieldName('left')?.text ?? '';
  return /^(module\.exports|exports)(\.[\w$]+)?$/.test(left) && left !== 'exports' ? assignment : null;
}

/** The top-level names a CommonJS export hands out: `module.exports = { a, b: c }` names a and c; `= f` names f. */
function namedByCommonJs(top: readonly SyntaxNode[]): Set<string> {
  const names = new Set<string>();
  for (const node of top) {
    const right = commonJsExport(node)?.childForFieldName('right');
    if (!right) continue;
    if (right.type === 'identifier') names.add(right.text);
    if (right.type !== 'object') continue;
    for (const entry of right.namedChildren) {
      if (entry?.type === 'shorthand_property_identifier') names.add(entry.text);
      const value = entry?.type === 'pair' ? entry.childForFieldName('value') : null;
      if (value?.type === 'identifier') names.add(value.text);
    }
  }
  return names;
}

/** The top-level names an ES export hands out without declaring them: `export default $` names $, `export { a, b as c }` a and b. */
function namedByEsExports(top: readonly SyntaxNode[]): Set<string> {
  const names = new Set<string>();
  for (const node of top) {
    if (node.type !== 'export_statement' || node.childForFieldName('source') || node.childForFieldName('declaration')) continue;
    const value = node.childForFieldName('value');
    if (value?.type === 'identifier') names.add(value.text);
    for (const clause of node.namedChildren) {
      if (clause?.type !== 'export_clause') continue;
      for (const specifier of clause.namedChildren) {
        const name = specifier?.childForFieldName('name');
        if (name) names.add(name.text);
      }
    }
  }
  return names;
}

function declaredNames(node: SyntaxNode): string[] {
  const own = node.childForFieldName('name');
  if (own) return [own.text];
  return node.namedChildren.flatMap((d) => (d?.type === 'variable_declarator' ? [d.childForFieldName('name')?.text ?? ''] : []));
}
