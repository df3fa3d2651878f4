/**
 * What a test file imports of its own repository, read from its text: the repository paths (without an
 * extension) its relative JavaScript or TypeScript specifiers resolve to, and the Python modules (dotted)
 * its `import` and `from … import` lines name, relative ones resolved against the test's folder. No parse
 * and no resolution of packages: enough to tell which of a change's files a test exercises.
 */
import path from 'node:path';

/** A repository path without its extension, and `/index` (`/__init__`) dropped: `pkg/index.js` → `pkg`. */
export function modulePath(file: string): string {
  const bare = file.replace(/\.[cm]?[jt]sx?$|\.py$/, '');
  return bare.replace(/(^|\/)(index|__init__)$/, '') || '.';
}

/** The dotted Python module of a repository path: `src/humanize/number.py` → `src.humanize.number`. */
export const dottedModule = (file: string): string => modulePath(file).split('/').join('.');

const JS_SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"](\.{1,2}(?:\/[^'"]*)?)['"]/g;

/** The repository paths (as modulePath gives them) a JavaScript or TypeScript test imports relatively. */
export function jsImports(test: string, text: string): string[] {
  const folder = path.posix.dirname(test);
  const found = new Set<string>();
  for (const match of text.matchAll(JS_SPECIFIER)) found.add(modulePath(path.posix.normalize(path.posix.join(folder, match[1]!))));
  return [...found];
}

const PY_FROM = /^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+\(?([\w, \t]+)/gm;
const PY_IMPORT = /^[ \t]*import[ \t]+([\w., \t]+)/gm;

/** The dotted modules a Python test imports: each module, and each name a `from` imports (it may be a module). */
export function pyImports(test: string, text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(PY_FROM)) {
    const module = resolvePython(test, match[1]!, match[2]!);
    if (module === null) continue;
    if (module) found.add(module);
    for (const name of match[3]!.split(',')) {
      const bare = name.trim().split(/\s+/)[0];
      if (bare) found.add(module ? `${module}.${bare}` : bare);
    }
  }
  for (const match of text.matchAll(PY_IMPORT))
    for (const name of match[1]!.split(',')) {
      const bare = name.trim().split(/\s+/)[0];
      if (bare) found.add(bare);
    }
  return [...found];
}

/** `from ..x import y` in colorama/tests/t.py → `colorama.x`; null when the dots climb out of the repository. */
function resolvePython(test: string, dots: string, module: string): string | null {
  if (!dots) return module;
  const folders = path.posix
    .dirname(test)
    .split('/')
    .filter((part) => part && part !== '.');
  if (dots.length - 1 > folders.length) return null;
  const base = folders.slice(0, folders.length - (dots.length - 1));
  return [...base, ...(module ? module.split('.') : [])].join('.');
}

/** Whether a test that imports `imports` (jsImports or pyImports of its text) exercises `file`. */
export function importsFile(imports: readonly string[], file: string): boolean {
  if (/\.py$/.test(file)) {
    const dotted = dottedModule(file);
    return imports.some((m) => dotted === m || dotted.endsWith(`.${m}`));
  }
  const module = modulePath(file);
  return imports.includes(module);
}
