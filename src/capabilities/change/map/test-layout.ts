/**
 * Which files of a repository are tests, by the runners' own default patterns, in each language the map
 * reads: JavaScript and TypeScript (`test/`, `__tests__/`, `*.test.js`, `*.spec.ts`; and node --test's
 * `test.js`, `test-*.js`, `*-test.js`, `*_test.js`, a root `test.js` included), Python (pytest's
 * `test_*.py` and `*_test.py`, unittest's `tests.py` and `test.py`, `tests/`, `conftest.py`), Go
 * (`*_test.go`), Rust (`tests/*.rs`, and a source file with a `#[cfg(test)] mod tests`), Java
 * (`src/test/java/`, `*Test.java`, `*Tests.java`, `*IT.java`). sops/change/policy.yaml lets QA write the
 * same places (test/unit/capabilities/change/map/test-layout-policy.test.ts holds them together).
 */
import path from 'node:path';
import type { FileTags } from './file-tags.ts';

const BY_PATH = [
  /(^|\/)(test|tests|__tests__|spec|specs)\//,
  /\.(test|spec)\.[cm]?[jt]sx?$/,
  /(^|\/)test\.[cm]?[jt]sx?$/,
  /(^|\/)test-[^/]+\.[cm]?[jt]sx?$/,
  /[^/][-_]test\.[cm]?[jt]sx?$/,
  /(^|\/)test_[^/]+\.py$/,
  /_test\.py$/,
  /(^|\/)tests?\.py$/,
  /(^|\/)conftest\.py$/,
  /_test\.go$/,
  /(^|\/)src\/test\/java\//,
  /(^|\/)[A-Z][A-Za-z0-9]*(Test|Tests|IT)\.java$/,
];

export type TestLanguage = 'javascript' | 'python' | 'go' | 'rust' | 'java';

/** Whether a path is a test file by its name or folder (a Rust source file's own tests need its tags: hasRustTests). */
export function isTestPath(file: string): boolean {
  return BY_PATH.some((pattern) => pattern.test(file));
}

/** A Rust source file that carries its unit tests: a `mod tests` (under `#[cfg(test)]`, by convention). */
export function hasRustTests(file: string, tags: FileTags | undefined): boolean {
  return file.endsWith('.rs') && (tags?.definitions.some((d) => d.kind === 'module' && (d.name === 'tests' || d.name === 'test')) ?? false);
}

/** The language whose runner runs a test file, or null for a file no runner here knows. */
export function testLanguageOf(file: string): TestLanguage | null {
  const extension = path.posix.extname(file).toLowerCase();
  if (/^\.[cm]?[jt]sx?$/.test(extension)) return 'javascript';
  if (extension === '.py') return 'python';
  if (extension === '.go') return 'go';
  if (extension === '.rs') return 'rust';
  if (extension === '.java') return 'java';
  return null;
}
