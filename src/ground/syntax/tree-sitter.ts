/**
 * The tree-sitter runtime and grammars, loaded once per process: web-tree-sitter and the prebuilt
 * grammar `.wasm` files of @vscode/tree-sitter-wasm (one package holds the runtime and every grammar,
 * built together, so their ABI versions match). Loading is asynchronous (WebAssembly); parsing with a
 * loaded grammar is not. Each language has one parser: a parse runs to its end before another starts.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as TreeSitterModule from '@vscode/tree-sitter-wasm';
import type { SyntaxLanguage } from './languages.ts';

const require = createRequire(import.meta.url);
// A UMD bundle: Node's ESM import cannot see its names, so it is required.
const TreeSitter = require('@vscode/tree-sitter-wasm') as typeof TreeSitterModule;
const WASM_DIR = path.dirname(require.resolve('@vscode/tree-sitter-wasm'));

export type SyntaxNode = TreeSitterModule.Node;
export type SyntaxTree = TreeSitterModule.Tree;
export type SyntaxQuery = TreeSitterModule.Query;

export interface Grammar {
  language: TreeSitterModule.Language;
  parser: TreeSitterModule.Parser;
  /** Compiles a query (tree-sitter's S-expression patterns) for this grammar. */
  query(source: string): SyntaxQuery;
}

let runtime: Promise<void> | null = null;
const loaded = new Map<SyntaxLanguage, Promise<Grammar>>();

export function grammarOf(language: SyntaxLanguage): Promise<Grammar> {
  let grammar = loaded.get(language);
  if (!grammar) {
    grammar = load(language);
    loaded.set(language, grammar);
  }
  return grammar;
}

async function load(name: SyntaxLanguage): Promise<Grammar> {
  runtime ??= TreeSitter.Parser.init();
  await runtime;
  const language = await TreeSitter.Language.load(path.join(WASM_DIR, `tree-sitter-${name}.wasm`));
  const parser = new TreeSitter.Parser();
  parser.setLanguage(language);
  return { language, parser, query: (source) => new TreeSitter.Query(language, source) };
}
