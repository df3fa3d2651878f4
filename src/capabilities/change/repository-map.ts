/**
 * The map of a repository a change run works from, as aider's repository map is: every path (the tree,
 * compressed, never cut), the manifests and README, how its tests run and what it builds first, and — within a token budget — the
 * signatures of the files that matter most to the request: every source file parsed with tree-sitter
 * for its definitions and references (map/file-tags.ts, cached by blob: map/tag-cache.ts), ranked with
 * PageRank personalised by the request's words (map/rank-files.ts). The company then asks for the files
 * it needs (the `read` step); nobody is sent the whole repository.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { RepositoryMap } from '../../documents/index.ts';
import { hasControls } from '../../ground/terminal-text.ts';
import { git } from '../../host/git/index.ts';
import { buildCommands, unbuiltEntries } from './map/build-commands.ts';
import { fillBudget } from './map/fill-budget.ts';
import { foldedTree } from './map/fold-tree.ts';
import { listFiles, type TreeFile } from './map/list-files.ts';
import { rankFiles } from './map/rank-files.ts';
import { relevance } from './map/relevance.ts';
import { requestTerms } from './map/request-terms.ts';
import { tagFiles } from './map/tag-files.ts';
import { testCommands } from './map/test-commands.ts';
import { hasRustTests, isTestPath } from './map/test-layout.ts';
import { isTestCase } from './nearest-tests.ts';

export const MAP_BOUNDS = {
  manifests: 4,
  manifestChars: 2500,
  readmeChars: 2500,
  testExamples: 3,
  /** Source files named as carrying their own tests inside (a Rust crate's lib.rs, say). */
  inlineTestSources: 5,
  /** The file tree's tokens: a larger one is folded, the folders that say least about the code first (map/fold-tree.ts). */
  treeTokens: 1200,
  /** The signatures' token budget unless the step says otherwise (the mapRepository step's `tokens`). */
  tokens: 1360,
};

const MANIFESTS = new Set([
  'package.json',
  'pyproject.toml',
  'setup.py',
  'setup.cfg',
  'requirements.txt',
  'tsconfig.json',
  'Cargo.toml',
  'go.mod',
  'pom.xml',
  'build.gradle',
]);

export interface MapInput {
  /** The work tree, checked out at `base`. */
  root: string;
  base: string;
  branch: string;
  slug: string;
  /** The change request in the client's words: what the ranking is personalised by. */
  request: string;
  /** Token budget of the signatures (default MAP_BOUNDS.tokens). */
  tokens?: number;
}

export async function mapRepository(input: MapInput): Promise<RepositoryMap> {
  const { root, base } = input;
  const files = (await listFiles(root, base)).sort((a, b) => byDepthThenName(a.path, b.path));
  const paths = files.map((f) => f.path);
  // A name with a newline or another control character is listed (quoted) but never read: no path a
  // role may name holds one (safe-path.ts), and its text would be shown under a forged name.
  const readable = files.filter((f) => !hasControls(f.path));
  const read = (file: string) => readText(root, file);
  const gitDir = (await git(root, ['rev-parse', '--path-format=absolute', '--git-common-dir'])).stdout.trim();
  const tagging = await tagFiles(root, gitDir, readable);
  const { files: ranked, weights } = relevance(tagging.files, requestTerms(input.request));
  const ranks = rankFiles(ranked, weights);
  const order = [...ranked].sort((a, b) => ranks.files.get(b.path)! - ranks.files.get(a.path)! || a.path.localeCompare(b.path));
  const signatures = fillBudget(
    order.map((f) => ({ path: f.path, rank: ranks.files.get(f.path)!, test: f.test, definitions: f.tags.definitions })),
    (file, name) => ranks.definitions.get(`${file}\0${name}`) ?? 0,
    weights,
    input.tokens ?? MAP_BOUNDS.tokens,
  );
  const byPath = new Map(tagging.files.map((f) => [f.path, f.tags]));
  const present = new Set(paths);
  const carriers = paths.filter((f) => !isTestPath(f) && hasRustTests(f, byPath.get(f)));
  const modules = carriers.map((f) => rustTestModule(f, present));
  // Files of tests first (the examples a new test is named after), then sources that carry theirs inline.
  const testFiles = [
    ...new Set([...paths.filter(isTestPath), ...modules.filter((m): m is string => m !== null), ...carriers.filter((_, i) => modules[i] === null)]),
  ];
  // A test folder's data and helpers (tomli's 974 tests/data/*.toml and *.json) are no tests to count, nor to
  // name a new one after; a Rust source that carries its tests is one.
  const cases = testFiles.filter((f) => isTestCase(f) || !isTestPath(f));
  const counted = cases.length > 0 ? cases : testFiles;
  const earlierChanges = new Set(paths.map((f) => /^docs\/changes\/([^/]+)\//.exec(f)?.[1]).filter(Boolean));
  return {
    base,
    branch: input.branch,
    changeDir: `docs/changes/${earlierChanges.size + 1}-${input.slug}`,
    fileCount: files.length,
    tree: foldedTree(paths, MAP_BOUNDS.treeTokens).tree,
    manifests: await manifestsOf(readable, read),
    readmes: await readmesOf(
      readable.map((f) => f.path),
      read,
    ),
    interfaces: signatures.interfaces,
    hasTests: testFiles.length > 0,
    tests: {
      files: counted.length,
      commands: (await testCommands(paths, read)).map(({ argv, source }) => ({ argv, source })),
      examples: testExamples(counted),
      builds: (await buildCommands(paths, read)).map(({ argv, source }) => ({ argv, source })),
      unbuilt: await unbuiltEntries(paths, read),
      inline: carriers.filter((_, i) => modules[i] === null).slice(0, MAP_BOUNDS.inlineTestSources),
    },
    omitted: tagging.files.filter((f) => f.tags.definitions.length > 0).length - signatures.interfaces.length,
    signatureTokens: signatures.tokens,
  };
}

async function manifestsOf(files: readonly TreeFile[], read: (file: string) => Promise<string | null>): Promise<RepositoryMap['manifests']> {
  const manifests: RepositoryMap['manifests'] = [];
  for (const file of files.filter((f) => MANIFESTS.has(path.posix.basename(f.path)) && f.path.split('/').length <= 2).slice(0, MAP_BOUNDS.manifests)) {
    const content = await read(file.path);
    if (content !== null) manifests.push({ path: file.path, content: clip(content, MAP_BOUNDS.manifestChars) });
  }
  return manifests;
}

async function readmesOf(paths: readonly string[], read: (file: string) => Promise<string | null>): Promise<RepositoryMap['readmes']> {
  const readme = paths.find((f) => /^readme(\.\w+)?$/i.test(f));
  const content = readme ? await read(readme) : null;
  return readme && content !== null ? [{ path: readme, content: clip(content, MAP_BOUNDS.readmeChars) }] : [];
}

/** A small text file of the work tree (never through a link), or null. */
async function readText(root: string, file: string): Promise<string | null> {
  return readSmallText(path.join(root, file), 200_000);
}

/** A file's text, or null when it is binary (a NUL byte), too large, or not a regular file. */
export async function readSmallText(file: string, maxBytes: number): Promise<string | null> {
  const stat = await fs.lstat(file).catch(() => null);
  if (!stat?.isFile() || stat.size > maxBytes) return null;
  const bytes = await fs.readFile(file);
  if (bytes.subarray(0, 8000).includes(0)) return null;
  return bytes.toString('utf8');
}

/**
 * Where a Rust file's `mod test;` or `mod tests;` has its body, when in a file of its own (`src/test.rs`
 * beside `src/lib.rs`): that file holds the tests, not the one that names it. Null: the module is inline.
 */
function rustTestModule(file: string, present: ReadonlySet<string>): string | null {
  const dir = path.posix.dirname(file);
  const name = path.posix.basename(file, '.rs');
  // A module declared in lib.rs, main.rs or mod.rs sits beside it; in foo.rs, in foo/.
  const folder = ['lib', 'main', 'mod'].includes(name) ? dir : path.posix.join(dir, name);
  const candidates = ['test.rs', 'tests.rs', 'test/mod.rs', 'tests/mod.rs'].map((module) => (folder === '.' ? module : `${folder}/${module}`));
  return candidates.find((candidate) => present.has(candidate)) ?? null;
}

/** Names no runner takes for anything but a test (`test_x.py`, `x.test.ts`, `x_test.go`): the examples to name a new test after. */
const NAMED_AS_TEST = /(^|\/)test_[^/]+\.py$|_test\.(py|go)$|\.(test|spec)\.[cm]?[jt]sx?$/;

/** A few test files from as many folders as there are, one named as a test first: where new tests go, and how they are named. */
function testExamples(testFiles: readonly string[]): string[] {
  const byFolder = new Map<string, string>();
  const ordered = [...testFiles.filter((f) => NAMED_AS_TEST.test(f)), ...testFiles.filter((f) => !NAMED_AS_TEST.test(f))];
  for (const file of ordered)
    if (!byFolder.has(path.posix.dirname(file)) && !/(^|\/)(__init__|conftest)\.py$/.test(file)) byFolder.set(path.posix.dirname(file), file);
  return [...byFolder.values()].slice(0, MAP_BOUNDS.testExamples);
}

const clip = (text: string, limit: number): string => (text.length <= limit ? text : `${text.slice(0, limit)}\n… (${text.length - limit} more characters)`);

const byDepthThenName = (a: string, b: string): number => a.split('/').length - b.split('/').length || a.localeCompare(b);
