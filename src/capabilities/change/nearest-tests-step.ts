/**
 * `nearestTests`: the repository's existing tests nearest to the files the change touches (nearest-tests.ts),
 * each as it is at the base — whole within the budget, else its first lines and a line saying what is not
 * shown — and the helpers they import, once each (whole when small, else what they define), so QA writes the
 * change's tests in the repository's own style, with its own helpers.
 */
import { z } from 'zod';
import * as C from '../../documents/index.ts';
import { defineStep } from '../../engine/steps/index.ts';
import { git, readBlobs } from '../../host/git/index.ts';
import { listFiles } from './map/list-files.ts';
import { nearestTests as chooseTests, isTestCase } from './nearest-tests.ts';
import { inPart } from './read-files.ts';

/** A test file larger than this is not read to find what it imports (a generated one, most likely). */
const READ_AT_MOST_BYTES = 512 * 1024;

export const nearestTests = defineStep({
  description:
    "The repository's existing tests nearest to the files of the ChangeTaskGraph, chosen without a model (src/capabilities/change/nearest-tests.ts): " +
    'in the same package, importing the changed files, named after them, named like them, in the nearest folder — at most `maxFiles`, read at the base commit, each ' +
    'whole while it fits `maxChars` characters and all of them `totalChars`, past that in part with a line saying what is not shown. The output is ' +
    '`files` (path, why, helpers — the helpers and fixtures it imports — and content), and `helpers` (path and content of each: whole when small, else its interface, `whole: false`): show it to the QA who writes the change’s tests.',
  params: z
    .object({
      maxFiles: z.number().int().min(1).max(4).default(2),
      maxChars: z.number().int().min(200).max(50_000).default(4000),
      totalChars: z.number().int().min(200).max(100_000).default(6000),
    })
    .strict(),
  output: C.ExistingTests,
  async run({ params }, ports) {
    const map = ports.board.latest<C.RepositoryMap>('RepositoryMap')?.payload;
    const tasks = ports.board.latest<C.ChangeTaskGraph>('ChangeTaskGraph')?.payload.tasks ?? [];
    if (!map) return { files: [] };
    return existingTests(
      ports.repository.root,
      map.base,
      tasks.flatMap((t) => (t.from ? [t.file, t.from] : [t.file])),
      params,
      // The names the tasks mention (`res.redirect`): a test named after one is near, wherever it is.
      [...new Set(tasks.flatMap((t) => t.description.match(/[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*/g) ?? []))],
    );
  },
});

export interface TestBounds {
  maxFiles: number;
  /** Characters of one test shown; the rest of a longer one is said, not shown. */
  maxChars: number;
  /** Characters of all of them together. */
  totalChars: number;
}

/** The existing tests nearest to `changed`, each as it is at `base`, within the bounds. */
export async function existingTests(
  root: string,
  base: string,
  changed: readonly string[],
  bounds: TestBounds,
  about: readonly string[] = [],
): Promise<C.ExistingTests> {
  const tree = (await listFiles(root, base)).filter((f) => f.regular);
  // Every test's text at the base, in one git process: what it imports is read from it, never from the work tree the change is editing.
  const tests = tree.filter((f) => isTestCase(f.path) && f.size <= READ_AT_MOST_BYTES);
  const texts = await readBlobs(
    root,
    tests.map((f) => f.blob),
  );
  const blobOf = new Map(tests.map((f) => [f.path, f.blob]));
  const read = async (file: string) => texts.get(blobOf.get(file) ?? '') ?? null;
  const chosen = await chooseTests({ files: tree.map((f) => f.path), changed, read, maxFiles: bounds.maxFiles, about });
  let left = bounds.totalChars;
  const shown: C.ExistingTests['files'] = [];
  for (const test of chosen) {
    // A second test gets what the first left; one with too little room to show its first tests is not shown.
    if (shown.length > 0 && left < Math.min(bounds.maxChars, 1000)) break;
    const content = (await read(test.path)) ?? (await git(root, ['cat-file', 'blob', `${base}:${test.path}`])).stdout;
    const part = inPart(content, Math.min(bounds.maxChars, left));
    left -= part.length;
    shown.push({ ...test, content: part });
  }
  return { files: shown, helpers: await smallHelpers(root, tree, shown) };
}

/**
 * A helper up to this size is shown whole (sqlparse's conftest.py, its fixtures, is 1,571); a larger one by its
 * interface — its classes and functions with their signatures — when that fits (cachetools' tests/__init__.py,
 * 11,811, is a 1,043-character interface: its CacheTestMixin, CountedLock, CountedCondition), else only named.
 */
const HELPER_AT_MOST_CHARS = 3000;
/** A helper larger than this is not read: its interface would not fit either. */
const HELPER_READ_AT_MOST_BYTES = 200 * 1024;

/** The helpers the shown tests import (`tests/__init__.py`, a conftest.py), each once: whole, or what it defines. */
async function smallHelpers(root: string, tree: readonly { path: string; blob: string; size: number }[], shown: C.ExistingTests['files']) {
  const named = new Set(shown.flatMap((t) => t.helpers));
  const read = tree.filter((f) => named.has(f.path) && f.size <= HELPER_READ_AT_MOST_BYTES);
  const texts = await readBlobs(
    root,
    read.map((f) => f.blob),
  );
  const helpers: NonNullable<C.ExistingTests['helpers']> = [];
  for (const f of read) {
    const content = texts.get(f.blob) ?? '';
    if (content.trim() === '') continue;
    if (content.length <= HELPER_AT_MOST_CHARS) {
      helpers.push({ path: f.path, content, whole: true });
      continue;
    }
    const defined = await C.codeInterface(f.path, content);
    // "(it has no public names)": an interface that says nothing is not shown.
    const saysNothing = /^\([^\n]*\)$/.test(defined.trim());
    if (!saysNothing && defined.length <= HELPER_AT_MOST_CHARS && defined.length < content.length)
      helpers.push({ path: f.path, content: defined, whole: false });
  }
  return helpers;
}
