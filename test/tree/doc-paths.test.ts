import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Every `src/…`, `docs/…` and `test/<tier>/…` path that README.md, docs/*.md and the files of src/ name exists in
 * this repository, so a move or a rename (a test moved into src/'s mirror) cannot leave the docs or a comment
 * pointing at nothing. A pattern (`spoil-*.ts`, `<name>.ts`) is checked as
 * the folder it names. Four kinds of path are not ours and are passed over: files of a project sopworks
 * generates (`src/count.js`, `src/a.py`: sopworks's own source is TypeScript), the documents a run writes
 * into that project (`docs/prd.md`, `docs/test-reports/round-N.md`, …), and the files `change` reads in a
 * repository it is given (`docs/CONVENTIONS.md`) or that src/'s comments give as another project's layout.
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..');

/**
 * A path as prose names it: `src/` or `docs/` not inside another word or path, up to its last name
 * character; `pattern` is set when a wildcard or a placeholder (`*`, `<name>`) follows.
 */
const PATH_IN_PROSE = /(?<![\w./-])(?<path>(?:src|docs|test\/(?:unit|tree|integration|security|helpers))\/[\w./-]*[\w/])(?<pattern>[-.]?[*<])?/g;
/** The documents a run commits into the project it makes (the documents tier writes them). */
const GENERATED_DOCS = ['docs/prd.md', 'docs/design.md', 'docs/tasks.md', 'docs/USER_GUIDE.md'];
const GENERATED_DOC_FOLDERS = ['docs/bug-reports/', 'docs/test-reports/', 'docs/changes/'];
/** A repository's own instructions, which `change` reads in the repository it is given. */
const FOREIGN_DOCS = ['docs/CONVENTIONS.md', 'docs/CONTRIBUTING.md'];
/** Examples of other projects' layouts that comments in src/ give (the repository map, test layouts, a path's nearest match). */
const FOREIGN_SOURCE = ['src/_pytest/', 'src/test/java/', 'src/greet.ts'];
/** Endings of a generated project's source files; sopworks's `src/` holds TypeScript only. */
const GENERATED_SOURCE = /\.(?:js|mjs|cjs|py|go|rs)$/;

function isOurs(named: string): boolean {
  if (named.startsWith('src/')) return !GENERATED_SOURCE.test(named) && !FOREIGN_SOURCE.includes(named);
  const folder = named.endsWith('/') ? named : `${named}/`;
  if (FOREIGN_DOCS.includes(named)) return false;
  return !GENERATED_DOCS.includes(named) && !GENERATED_DOC_FOLDERS.some((f) => folder.startsWith(f));
}

/** The paths of ours that `text` names: a pattern's folder (`src/x/spoil-*.ts` names `src/x/`). */
function namedPaths(text: string): string[] {
  const named = [...text.matchAll(PATH_IN_PROSE)].map((m) => {
    const named = m.groups?.path ?? '';
    return m.groups?.pattern === undefined ? named : named.slice(0, named.lastIndexOf('/') + 1);
  });
  return [...new Set(named.filter(isOurs))];
}

/** The paths of ours that `text` names and that do not exist under `root`. */
function missingPaths(text: string, root: string): string[] {
  return namedPaths(text).filter((p) => !fs.existsSync(path.join(root, p)));
}

/** README.md, docs/*.md and every TypeScript file under src/ (its comments name the files they lean on). */
const docFiles = (): string[] => [
  'README.md',
  ...fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
  ...fs
    .readdirSync(path.join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `src/${f}`),
];

describe('paths named in README.md, docs/ and the comments of src/', () => {
  it('all exist', () => {
    let checked = 0;
    const missing: string[] = [];
    for (const file of docFiles()) {
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      checked += namedPaths(text).length;
      missing.push(...missingPaths(text, ROOT).map((p) => `${file}: ${p}`));
    }
    // The docs name dozens of our paths: a pattern that matched none would check nothing.
    assert.ok(checked > 30, `only ${checked} paths found in the docs`);
    assert.deepEqual(missing, [], 'rename these in the docs, or restore the files they name');
  });

  it('finds a stale path in prose, in backticks and at a sentence end, and passes over a generated project', () => {
    const text = [
      'Moved: `src/engine/vocabulary/step.ts`, and see src/sandbox/.',
      'Also docs/nowhere.md. Then the project writes src/count.js and docs/prd.md and docs/test-reports/round-1.md.',
      'Still here: `src/ground/errors.ts`, not a path: mysrc/x.ts; a repository may hold docs/CONVENTIONS.md.',
      'Patterns: `src/llm/providers/<name>.ts`, `src/capabilities/model/chaos/spoil-*.ts`, `src/nowhere/x-*.ts`.',
      "Tests: `test/unit/decide-outcome.test.ts` (moved), `test/unit/engine/run/decide-outcome.test.ts`, a project's test/index.js.",
    ].join('\n');
    assert.deepEqual(missingPaths(text, ROOT), [
      'src/engine/vocabulary/step.ts',
      'src/sandbox/',
      'docs/nowhere.md',
      'src/llm/providers/',
      'src/nowhere/',
      'test/unit/decide-outcome.test.ts',
    ]);
  });
});
