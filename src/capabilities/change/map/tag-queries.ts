/**
 * Tree-sitter queries for the repository map's tags, per language. `definitions` has the shape of the
 * grammars' own `queries/tags.scm` (which aider's repository map reads): `@name` is a definition's name
 * inside a node captured as `@definition.<kind>`. `text` captures the comments and string literals: a
 * file's references are the names in its code outside them (file-tags.ts) — the parse decides what is
 * code, and scanning the rest for names costs a fraction of capturing every identifier node. Written out
 * here because the grammar package (@vscode/tree-sitter-wasm) ships the grammars without their queries.
 */

import type { SyntaxLanguage } from '../../../ground/syntax/index.ts';

const JS_DEFINITIONS = `
(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(class_declaration name: (_) @name) @definition.class
(method_definition name: (_) @name) @definition.method
(variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression) (class)]) @definition.function
(assignment_expression
  left: [(identifier) @name (member_expression property: (property_identifier) @name)]
  right: [(arrow_function) (function_expression) (class)]) @definition.function
(pair key: (property_identifier) @name value: [(arrow_function) (function_expression)]) @definition.function
(program (export_statement declaration: (lexical_declaration (variable_declarator name: (identifier) @name value: (_) @value))) @definition.constant)
(program (expression_statement (assignment_expression
  left: (member_expression object: (identifier) @object property: (property_identifier) @name)
  right: [(identifier) (string) (number) (object) (call_expression) (member_expression)]) @definition.constant)
  (#eq? @object "exports"))
(program (expression_statement (assignment_expression
  left: (member_expression object: (identifier) @object property: (property_identifier) @property)
  right: (_)) @definition.exports)
  (#eq? @object "module") (#eq? @property "exports"))
`;

const TS_DEFINITIONS = `${JS_DEFINITIONS}
(function_signature name: (identifier) @name) @definition.function
(abstract_class_declaration name: (type_identifier) @name) @definition.class
(interface_declaration name: (type_identifier) @name) @definition.interface
(type_alias_declaration name: (type_identifier) @name) @definition.type
(enum_declaration name: (identifier) @name) @definition.enum
(method_signature name: (_) @name) @definition.method
(abstract_method_signature name: (_) @name) @definition.method
(internal_module name: (_) @name) @definition.module
`;

const PYTHON_DEFINITIONS = `
(function_definition name: (identifier) @name) @definition.function
(class_definition name: (identifier) @name) @definition.class
(module (expression_statement (assignment left: (identifier) @name)) @definition.constant)
`;

const GO_DEFINITIONS = `
(function_declaration name: (identifier) @name) @definition.function
(method_declaration name: (field_identifier) @name) @definition.method
(type_spec name: (type_identifier) @name) @definition.type
(source_file (const_declaration (const_spec name: (identifier) @name) @definition.constant))
(source_file (var_declaration (var_spec name: (identifier) @name) @definition.variable))
(method_elem name: (field_identifier) @name) @definition.method
`;

const RUST_DEFINITIONS = `
(function_item name: (identifier) @name) @definition.function
(function_signature_item name: (identifier) @name) @definition.function
(struct_item name: (type_identifier) @name) @definition.class
(enum_item name: (type_identifier) @name) @definition.class
(union_item name: (type_identifier) @name) @definition.class
(trait_item name: (type_identifier) @name) @definition.interface
(type_item name: (type_identifier) @name) @definition.type
(mod_item name: (identifier) @name) @definition.module
(macro_definition name: (identifier) @name) @definition.macro
(const_item name: (identifier) @name) @definition.constant
(static_item name: (identifier) @name) @definition.constant
(impl_item type: [(type_identifier) @name (generic_type type: (type_identifier) @name)]) @definition.impl
`;

const JAVA_DEFINITIONS = `
(class_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(record_declaration name: (identifier) @name) @definition.class
(annotation_type_declaration name: (identifier) @name) @definition.interface
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.method
`;

const JS_TEXT = '[(comment) (string) (template_string) (regex)] @text';
const PYTHON_TEXT = '[(comment) (string)] @text';
const GO_TEXT = '[(comment) (interpreted_string_literal) (raw_string_literal) (rune_literal)] @text';
const RUST_TEXT = '[(line_comment) (block_comment) (string_literal) (raw_string_literal) (char_literal)] @text';
const JAVA_TEXT = '[(line_comment) (block_comment) (string_literal) (character_literal)] @text';

export interface TagQueries {
  definitions: string;
  text: string;
}

export const TAG_QUERIES = {
  javascript: { definitions: JS_DEFINITIONS, text: JS_TEXT },
  typescript: { definitions: TS_DEFINITIONS, text: JS_TEXT },
  tsx: { definitions: TS_DEFINITIONS, text: JS_TEXT },
  python: { definitions: PYTHON_DEFINITIONS, text: PYTHON_TEXT },
  go: { definitions: GO_DEFINITIONS, text: GO_TEXT },
  rust: { definitions: RUST_DEFINITIONS, text: RUST_TEXT },
  java: { definitions: JAVA_DEFINITIONS, text: JAVA_TEXT },
} satisfies Record<SyntaxLanguage, TagQueries>;

export type MapLanguage = SyntaxLanguage;
