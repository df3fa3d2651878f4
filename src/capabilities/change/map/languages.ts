/** Which tree-sitter grammar reads a file, by its extension; null for a file the map does not parse. */
import path from 'node:path';
import type { MapLanguage } from './tag-queries.ts';

const BY_EXTENSION: Record<string, MapLanguage> = {
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

export function languageOf(file: string): MapLanguage | null {
  return BY_EXTENSION[path.posix.extname(file).toLowerCase()] ?? null;
}
