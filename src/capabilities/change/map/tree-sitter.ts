/**
 * The tree-sitter runtime and grammars, loaded once per process: web-tree-sitter and the prebuilt
 * grammar `.wasm` files of @vscode/tree-sitter-wasm (one package holds the runtime and every grammar
 * the map reads, built together, so their ABI versions match). Each language gets one parser and one
 * compiled query holding both its definitions and its comments and strings (tag-queries.ts): a file's
 * tree is walked once, not once per query (the walk is most of a query's cost).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { TAG_QUERIES, type MapLanguage } from './tag-queries.ts';

const require = createRequire(import.meta.url);
// A UMD bundle: Node's ESM import cannot see its names, so it is required.
const TreeSitter = require('@vscode/tree-sitter-wasm') as typeof import('@vscode/tree-sitter-wasm');
const WASM_DIR = path.dirname(require.resolve('@vscode/tree-sitter-wasm'));

export type SyntaxNode = import('@vscode/tree-sitter-wasm').Node;

export interface LanguageTools {
  parser: import('@vscode/tree-sitter-wasm').Parser;
  /** The definitions' patterns and the `@text` pattern, in one query. */
  tags: import('@vscode/tree-sitter-wasm').Query;
}

let runtime: Promise<void> | null = null;
const loaded = new Map<MapLanguage, Promise<LanguageTools>>();

export function languageTools(language: MapLanguage): Promise<LanguageTools> {
  let tools = loaded.get(language);
  if (!tools) {
    tools = load(language);
    loaded.set(language, tools);
  }
  return tools;
}

async function load(language: MapLanguage): Promise<LanguageTools> {
  runtime ??= TreeSitter.Parser.init();
  await runtime;
  const grammar = await TreeSitter.Language.load(path.join(WASM_DIR, `tree-sitter-${language}.wasm`));
  const parser = new TreeSitter.Parser();
  parser.setLanguage(grammar);
  const queries = TAG_QUERIES[language];
  return { parser, tags: new TreeSitter.Query(grammar, `${queries.definitions}\n${queries.text}`) };
}
