/** Which tree-sitter grammar reads a file, by its extension; null for a file no grammar here reads. */
import path from 'node:path';

/** The grammars sopworks reads source with (each a `tree-sitter-<name>.wasm` of @vscode/tree-sitter-wasm). */
export type SyntaxLanguage = 'javascript' | 'typescript' | 'tsx' | 'python' | 'go' | 'rust' | 'java';

const BY_EXTENSION: Record<string, SyntaxLanguage> = {
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'javascript',
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'tsx',
  '.py': 'python',
  '.pyi': 'python',
  '.go': 'go',
  '.rs': 'rust',
  '.java': 'java',
};

export function languageOf(file: string): SyntaxLanguage | null {
  return BY_EXTENSION[path.posix.extname(file).toLowerCase()] ?? null;
}
