/**
 * The repository's existing tests nearest to the files a change touches, so the QA of a change writes its
 * tests as the repository writes them (its runner's style, its imports, helpers and fixtures) — chosen
 * without a model, the same way every time. Among the tests in the change's language, nearest is, in this
 * order: in the same package (a monorepo's package.json, pyproject.toml, go.mod…); that imports more of the
 * changed files (a Go test, every file of its folder); named after one of them (`ansitowin32_test.py`
 * for `ansitowin32.py`, `add.test.ts` for `add/index.ts`) or after a name its tasks mention
 * (`test/res.redirect.js` for a task about `res.redirect()`); named like one of them (`uint_slice_test.go` for a
 * new `uint8_slice.go`, in a Go package of fifty tests); in a folder sharing more of their path; a test
 * by its name rather than only by its folder; then by path. A helper or fixture found where tests live
 * (`test/_fixture.js`, `tests/utils.py`, `conftest.py`, `__snapshots__/`) is not a test: the helpers
 * the chosen tests import are named beside them instead.
 */
import path from 'node:path';
import { isTestPath, type TestLanguage, testLanguageOf } from './map/test-layout.ts';
import { importsFile, jsImports, modulePath, pyImports } from './test-imports.ts';

export interface NearTest {
  path: string;
  /** Why it was chosen, in a few words naming the changed file it is near. */
  why: string;
  /** The repository's files it imports that are not tests: helpers, fixtures (and a Python test's conftest.py). */
  helpers: string[];
}

const MANIFESTS = /(^|\/)(package\.json|pyproject\.toml|setup\.py|setup\.cfg|go\.mod|Cargo\.toml|pom\.xml|build\.gradle)$/;
const ASIDE_FOLDER = /(^|\/)(fixtures?|__fixtures__|__snapshots__|__mocks__|snapshots|testdata|data)\//;
const HELPER_NAME = /^_|^(conftest|setup|utils?|helpers?|fixtures?|common|support|mocks?|test[-_]?utils?|e2e[-_]utils|testing)([-_.]|$)/i;
/** A test by its own name (not only by being in a test folder): `*.test.js`, `test_*.py`, `*_test.go`, `FooTest.java`… */
const TEST_NAME = /\.(test|spec)\.[cm]?[jt]sx?$|(^|\/)(test[-_][^/]+|[^/]+[-_]test\.[^/.]+)$|(^|\/)tests?\.[^/.]+$|(Test|Tests|IT)\.java$/;
/** A name no helper has: `utils.test.ts` tests utils, where `test/utils.js` or `test-utils.ts` helps tests. */
const UNMISTAKABLE = /\.(test|spec)\.[cm]?[jt]sx?$|_test\.(py|go)$|^test_.+\.py$|(Test|Tests|IT)\.java$/;
/** Names that say nothing of a module: its folder's name is used instead (`add/index.ts` is `add`). */
const GENERIC = new Set(['index', 'init', 'main', 'mod', 'lib', 'test', 'tests', 'spec']);
const CONTAINER = new Set(['src', 'lib', 'source', 'test', 'tests', '__tests__', 'spec', 'specs', 'pkg', 'internal']);

/** Whether a file a runner's patterns count as a test is an actual test (not a helper, fixture or snapshot). */
export function isTestCase(file: string): boolean {
  if (!isTestPath(file) || testLanguageOf(file) === null || /\.d\.[cm]?ts$/.test(file)) return false;
  if (ASIDE_FOLDER.test(file) || /(^|\/)(conftest|__init__)\.py$/.test(file)) return false;
  const name = path.posix.basename(file);
  return UNMISTAKABLE.test(name) || !HELPER_NAME.test(name);
}

/** The module a file is about, by its name: `Test`/`test_`/`.test` and the extension off, lower case, no punctuation. */
export function moduleStem(file: string): string {
  const parts = file.split('/');
  let name = parts
    .pop()!
    .replace(/\.(test|spec)\.[^.]+$/, '')
    .replace(/\.[^.]+$/, '')
    .replace(/^test[-_]|[-_.]test$/g, '')
    .replace(file.endsWith('.java') ? /(Tests?|IT)$/ : /$^/, '');
  name = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  while (GENERIC.has(name) || name === '') {
    const folder = parts.pop();
    if (folder === undefined) return '';
    if (!CONTAINER.has(folder)) name = folder.toLowerCase().replace(/[^a-z0-9]/g, '');
  }
  return name;
}

export interface NearTestsInput {
  /** Every file of the repository at the base. */
  files: readonly string[];
  /** The files the change touches (written, removed or moved from). */
  changed: readonly string[];
  /** The start of a file's text at the base (its imports), or null. */
  read(file: string): Promise<string | null>;
  maxFiles: number;
  /**
   * The names the change is about, from its tasks' words (`res.redirect`, `parseArgs`): a test named after
   * one (`test/res.redirect.js`) tests what the change changes, whatever file it is in.
   */
  about?: readonly string[];
}

type Score = [samePackage: number, imports: number, named: number, resembles: number, shared: number, byName: number];

export async function nearestTests(input: NearTestsInput): Promise<NearTest[]> {
  const changed = new Set(input.changed);
  const sources = input.changed.filter((f) => !isTestPath(f));
  const near = sources.length > 0 ? sources : [...changed];
  const languages = new Set(near.map(testLanguageOf).filter((l): l is TestLanguage => l !== null));
  const packages = input.files.filter((f) => MANIFESTS.test(f)).map((f) => path.posix.dirname(f));
  const packageOf = (file: string) => packages.filter((p) => p === '.' || file.startsWith(`${p}/`)).sort((a, b) => b.length - a.length)[0] ?? '.';
  const candidates = input.files.filter((f) => isTestCase(f) && !changed.has(f) && (languages.size === 0 || languages.has(testLanguageOf(f)!)));
  const scored: { file: string; score: Score; imports: string[]; reason: string }[] = [];
  for (const file of candidates) {
    const imports = await importsOf(file, input.read);
    const reasons: string[] = [];
    const score: Score = [0, 0, 0, 0, 0, TEST_NAME.test(file) ? 1 : 0];
    for (const target of near) {
      const same = packageOf(target) === packageOf(file) ? 1 : 0;
      const samePackage = goSamePackage(file, target);
      const imported = samePackage || importsFile(imports, target);
      const named = moduleStem(file) !== '' && moduleStem(file) === moduleStem(target);
      const resembles = named ? 0 : resemblance(moduleStem(file), moduleStem(target));
      score[0] = Math.max(score[0], same);
      score[1] += imported ? 1 : 0;
      score[2] += named ? 1 : 0;
      score[3] = Math.max(score[3], resembles);
      score[4] = Math.max(score[4], sharedFolders(file, target));
      const like = resembles > 0 ? ', named like it' : '';
      if (named) reasons.push(`named after ${target}`);
      else if (samePackage) reasons.push(`in the package of ${target}${like}`);
      else if (imported) reasons.push(`imports ${target}`);
    }
    const subject = score[2] === 0 ? aboutNamed(file, input.about ?? []) : null;
    if (subject) {
      score[2] = 1;
      reasons.unshift(`named after ${subject}, which the change is about`);
    }
    scored.push({ file, score, imports, reason: reasons[0] ?? nearReason(file, near) });
  }
  scored.sort((a, b) => compareScores(b.score, a.score) || a.file.localeCompare(b.file));
  const fileSet = new Set(input.files);
  return scored.slice(0, input.maxFiles).map((s) => ({ path: s.file, why: s.reason, helpers: helpersOf(s.file, s.imports, fileSet) }));
}

async function importsOf(file: string, read: (file: string) => Promise<string | null>): Promise<string[]> {
  const language = testLanguageOf(file);
  if (language !== 'javascript' && language !== 'python') return [];
  const text = await read(file);
  if (text === null) return [];
  return language === 'python' ? pyImports(file, text) : jsImports(file, text);
}

/** The name of `about` a test is named after (`test/res.redirect.js` for `res.redirect`), or null; names of four letters or more. */
function aboutNamed(test: string, about: readonly string[]): string | null {
  const stem = moduleStem(test);
  if (stem.length < 4) return null;
  return about.find((name) => name.toLowerCase().replace(/[^a-z0-9]/g, '') === stem) ?? null;
}

/** A Go test sees every file of its folder: they are one package. */
const goSamePackage = (test: string, file: string): boolean =>
  test.endsWith('.go') && file.endsWith('.go') && path.posix.dirname(test) === path.posix.dirname(file);

/** How alike two module names are: the letters they begin and end with in common (`uintslice`, `uint8slice`: 9), runs of under 3 not counted. */
function resemblance(a: string, b: string): number {
  if (!a || !b) return 0;
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  return (start >= 3 ? start : 0) + (end >= 3 ? end : 0);
}

function sharedFolders(a: string, b: string): number {
  const x = path.posix.dirname(a).split('/');
  const y = path.posix.dirname(b).split('/');
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n] && x[n] !== '.') n++;
  return n;
}

function nearReason(file: string, near: readonly string[]): string {
  const closest = [...near].sort((a, b) => sharedFolders(file, b) - sharedFolders(file, a) || a.localeCompare(b))[0];
  if (closest && sharedFolders(file, closest) > 0) return `near ${closest}`;
  return 'a test of the repository';
}

function compareScores(a: Score, b: Score): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** The repository files a test imports that are no tests of their own (its helpers and fixtures), and a Python test's conftest.py files. */
function helpersOf(test: string, imports: readonly string[], files: ReadonlySet<string>): string[] {
  const helpers = new Set<string>();
  const byModule = new Map<string, string>();
  for (const file of files) if (testLanguageOf(file) !== null && isTestPath(file) && !isTestCase(file)) byModule.set(modulePath(file), file);
  for (const module of imports) {
    const file = byModule.get(module) ?? byModule.get(module.split('.').join('/'));
    if (file) helpers.add(file);
  }
  if (test.endsWith('.py')) {
    const folders = path.posix.dirname(test).split('/');
    for (let n = 0; n <= folders.length; n++) {
      const conftest = [...folders.slice(0, n), 'conftest.py'].filter((p) => p !== '.').join('/');
      if (files.has(conftest)) helpers.add(conftest);
    }
  }
  return [...helpers].sort();
}
