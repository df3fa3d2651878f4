/**
 * The fence languages (info strings) a file's extension is written in, to tell the file's block from a
 * usage example in another language. Null for an extension not listed: then no block is preferred.
 */
import path from 'node:path';

const FAMILIES: Record<string, string[]> = {
  js: ['js', 'javascript', 'node', 'mjs', 'cjs', 'jsx'],
  mjs: ['js', 'javascript', 'node', 'mjs'],
  cjs: ['js', 'javascript', 'node', 'cjs'],
  jsx: ['jsx', 'js', 'javascript'],
  ts: ['ts', 'typescript', 'mts', 'cts'],
  mts: ['ts', 'typescript', 'mts'],
  cts: ['ts', 'typescript', 'cts'],
  tsx: ['tsx', 'ts', 'typescript'],
  py: ['py', 'python', 'python3'],
  rb: ['rb', 'ruby'],
  go: ['go', 'golang'],
  rs: ['rs', 'rust'],
  java: ['java'],
  kt: ['kt', 'kotlin'],
  cs: ['cs', 'csharp', 'c#'],
  c: ['c'],
  h: ['c', 'h', 'cpp', 'c++'],
  cpp: ['cpp', 'c++', 'cc', 'cxx'],
  cc: ['cpp', 'c++', 'cc'],
  hpp: ['cpp', 'c++', 'hpp'],
  php: ['php'],
  swift: ['swift'],
  sh: ['sh', 'bash', 'shell', 'zsh'],
  bash: ['sh', 'bash', 'shell'],
  json: ['json', 'jsonc'],
  yaml: ['yaml', 'yml'],
  yml: ['yaml', 'yml'],
  toml: ['toml'],
  md: ['md', 'markdown'],
  html: ['html', 'htm'],
  css: ['css'],
  sql: ['sql'],
};

export function languagesOf(filePath: string): Set<string> | null {
  const extension = path.posix.extname(filePath).slice(1).toLowerCase();
  const family = FAMILIES[extension];
  return family ? new Set(family) : null;
}
