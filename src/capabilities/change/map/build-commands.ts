/**
 * How a repository builds what its tests import, read from its files before anything is asked of a
 * model: the build steps it declares — package.json's `pretest`, `build`, `compile`, `prepare` and
 * `postinstall` scripts (run with npm, as its runner forms are: src/host/runners/), a Makefile's `build`
 * target — and the entry points its packages name that the repository does not hold (a `main` in
 * `dist/` that only a build writes). The map shows both; the Architect chooses the design's
 * `buildCommand` from them, and QA runs it in the tests' sandbox before each test round
 * (src/capabilities/test-round/build-first.ts). A script that only installs git hooks (husky, `git
 * config`) is no build: it writes `.git`, which the sandbox keeps read-only. Pure but for `read`.
 */
import path from 'node:path';
import type { DeclaredCommand, ReadFile } from './declared/declared-command.ts';
import { scriptsOf } from './declared/package-declared.ts';
import { workspacePackages } from './declared/workspace-declared.ts';

/** The scripts a build may hide behind, in the order they are offered: what `npm test` runs first, then the usual names. */
const BUILD_SCRIPTS = ['pretest', 'build', 'compile', 'prepare', 'postinstall'] as const;

/** Words of a script that installs git hooks or checks the repository, and builds nothing. */
const NOT_A_BUILD = /^(husky( install)?|simple-git-hooks|lefthook install|is-ci|git config .*|manypkg check|only-allow .*|npx only-allow .*)$/;

/** How many packages with unbuilt entry points the map names (the rest are counted). */
const UNBUILT_NAMED = 6;

/** The build steps a repository declares, most direct first: empty when it declares none. */
export async function buildCommands(files: readonly string[], read: ReadFile): Promise<DeclaredCommand[]> {
  const at = new Set(files);
  const found: DeclaredCommand[] = [];
  const scripts = at.has('package.json') ? scriptsOf(await read('package.json')) : null;
  for (const name of BUILD_SCRIPTS) {
    const script = scripts?.[name];
    if (!script || buildsNothing(script)) continue;
    found.push({ argv: ['npm', 'run', name], source: `package.json scripts.${name}: ${script}` });
  }
  if (at.has('Makefile')) {
    const target = makeBuildTarget((await read('Makefile')) ?? '');
    if (target) found.push({ argv: ['make', 'build'], source: `Makefile target build${target ? `: ${target}` : ''}` });
  }
  return found;
}

/** Whether every step of a script is one that builds nothing (`husky`, `manypkg check && husky install`). */
function buildsNothing(script: string): boolean {
  return script
    .split(/&&|;|\|\|/)
    .map((step) => step.trim().replace(/\s+/g, ' '))
    .every((step) => step === '' || NOT_A_BUILD.test(step));
}

/** A Makefile's `build` target, as its recipe reads (its prerequisites when it has no recipe); null without one. */
function makeBuildTarget(text: string): string | null {
  const lines = text.replace(/\r\n/g, '\n').replace(/\\\n/g, ' ').split('\n');
  const at = lines.findIndex((line) => /^build\s*:(?!=)/.test(line));
  if (at === -1) return null;
  const recipe: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    if (!line.startsWith('\t')) break;
    recipe.push(line.trim());
  }
  return recipe.length > 0 ? recipe.join('; ') : lines[at]!.replace(/^build\s*:\s*/, '').trim() || 'build';
}

/**
 * The entry points of the repository's package.json files (its own and its workspace packages') that name
 * a file the repository does not hold — `packages/git/package.json main: dist/changesets-git.cjs.js` —
 * which a build writes: tests that import the package load them. One line per package, at most UNBUILT_NAMED, then a count.
 */
export async function unbuiltEntries(files: readonly string[], read: ReadFile): Promise<string[]> {
  const at = new Set(files);
  const folders = ['', ...(await workspacePackages(files, read)).map((p) => p.folder)];
  // One line per package: its first missing entry point, and how many more it names.
  const missing: string[] = [];
  for (const folder of folders) {
    const manifest = folder ? `${folder}/package.json` : 'package.json';
    if (!at.has(manifest)) continue;
    const absent = entryPoints(await read(manifest)).filter(([, entry]) => {
      const file = path.posix.normalize(path.posix.join(folder, entry));
      return !file.startsWith('..') && !holds(at, file);
    });
    const [first] = absent;
    if (first) missing.push(`${manifest} ${first[0]}: ${first[1]}${absent.length > 1 ? ` (and ${absent.length - 1} more of its entry points)` : ''}`);
  }
  if (missing.length <= UNBUILT_NAMED) return missing;
  return [...missing.slice(0, UNBUILT_NAMED), `… and ${missing.length - UNBUILT_NAMED} more packages`];
}

/** Whether the repository holds what an entry point names, as Node resolves it (`dist/index` is dist/index.js). */
function holds(at: ReadonlySet<string>, file: string): boolean {
  return ['', '.js', '.cjs', '.mjs', '.json', '/index.js'].some((suffix) => at.has(`${file}${suffix}`));
}

/** A package.json's entry points: `main`, `module`, `bin`, and each path of `exports` (patterns with `*` left out). */
function entryPoints(text: string | null): [string, string][] {
  let manifest: Record<string, unknown>;
  try {
    manifest = JSON.parse(text ?? '') as Record<string, unknown>;
  } catch {
    return [];
  }
  if (manifest === null || typeof manifest !== 'object') return [];
  const found: [string, string][] = [];
  const add = (field: string, value: unknown): void => {
    if (typeof value === 'string') {
      if (value.startsWith('./') || !value.startsWith('.')) if (!value.includes('*')) found.push([field, value]);
    } else if (value && typeof value === 'object') for (const inner of Object.values(value)) add(field, inner);
  };
  for (const field of ['main', 'module', 'bin', 'exports']) add(field, manifest[field]);
  // One line per file: `exports` often names the same file under several conditions.
  return found.filter(([, entry], i) => found.findIndex(([, other]) => other === entry) === i);
}
