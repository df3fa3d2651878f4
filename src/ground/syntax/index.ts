/** ground/syntax: its public face — source code read with tree-sitter. */
export { languageOf, type SyntaxLanguage } from './languages.ts';
export { type Grammar, grammarOf, type SyntaxNode, type SyntaxQuery, type SyntaxTree } from './tree-sitter.ts';
