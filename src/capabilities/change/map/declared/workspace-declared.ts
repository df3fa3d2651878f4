/**
 * The test commands of a monorepo's packages — npm, pnpm or yarn workspaces — so that a change to one
 * package runs that package's tests, not nothing and not every package's blindly: a package with a
 * `test` script of its own runs it in the form the repository's package manager gives (`npm test -w
 * packages/a`, `pnpm --filter @x/a test`, `yarn workspace @x/a test`); a package without one, in a
 * repository whose root runner takes the paths to test (jest, vitest), runs the root's runner on its
 * folder (`npx jest packages/a`). Packages without test files get none. Pure but for `read`.
 */
import path from 'node:path';
import { matchWorkspaces, workspacePatterns } from '../../../../host/install/index.ts';
import { isTestPath } from '../test-layout.ts';
import type { DeclaredCommand, ReadFile } from './declared-command.ts';
import { scriptsOf } from './package-declared.ts';
import { withoutPackageRunner } from './runnable.ts';
import { commandChain } from './shell-words.ts';

/** The runners that run only the tests under the paths they are given. */
const PATH_RUNNERS = new Set(['jest', 'vitest']);
const NO_TEST_SCRIPT = /no test specified/;

type Manager = 'npm' | 'pnpm' | 'yarn';

export interface WorkspacePackage {
  folder: string;
  name: string | null;
  /** Its test files, by the runners' default patterns. */
  tests: number;
}

/** The repository's workspace packages (with their test files counted); empty when it declares none. */
export async function workspacePackages(files: readonly string[], read: ReadFile): Promise<WorkspacePackage[]> {
  const at = new Set(files);
  const patterns = workspacePatterns(
    at.has('package.json') ? await read('package.json') : null,
    at.has('pnpm-workspace.yaml') ? await read('pnpm-workspace.yaml') : null,
  );
  if (!patterns) return [];
  const folders = files.filter((f) => f.endsWith('/package.json')).map((f) => path.posix.dirname(f));
  const packages: WorkspacePackage[] = [];
  for (const folder of matchWorkspaces(folders, patterns)) {
    const name = nameOf(await read(`${folder}/package.json`));
    packages.push({ folder, name, tests: files.filter((f) => f.startsWith(`${folder}/`) && isTestPath(f)).length });
  }
  return packages;
}

/** Each tested package's command, as its repository's package manager runs it. */
export async function workspaceCommands(files: readonly string[], read: ReadFile): Promise<DeclaredCommand[]> {
  const packages = (await workspacePackages(files, read)).filter((p) => p.tests > 0);
  if (packages.length === 0) return [];
  const rootText = await read('package.json');
  const manager = managerOf(rootText, new Set(files));
  const rootTest = scriptsOf(rootText)?.test;
  const rootRunner = rootTest ? pathRunner(rootTest) : null;
  const found: DeclaredCommand[] = [];
  for (const pkg of packages) {
    const test = scriptsOf(await read(`${pkg.folder}/package.json`))?.test;
    const label = `the package ${pkg.folder}${pkg.name ? ` (${pkg.name})` : ''}, ${pkg.tests} test file${pkg.tests === 1 ? '' : 's'}`;
    if (test && !NO_TEST_SCRIPT.test(test)) found.push({ argv: scriptIn(manager, pkg), source: `${label}: ${pkg.folder}/package.json scripts.test: ${test}` });
    else if (rootRunner) found.push({ argv: [...rootRunner, pkg.folder], source: `${label}: the root's ${rootRunner[1]} on its folder` });
  }
  return found;
}

/** The package's `test` script in its manager's form (yarn names a package by its name; without one, npm's form). */
function scriptIn(manager: Manager, pkg: WorkspacePackage): string[] {
  if (manager === 'pnpm') return ['pnpm', '--filter', pkg.name ?? `./${pkg.folder}`, 'test'];
  if (manager === 'yarn' && pkg.name) return ['yarn', 'workspace', pkg.name, 'test'];
  return ['npm', 'test', '-w', pkg.folder];
}

/** The root script's jest or vitest, as a runner of the repository's installed binaries (`npx jest`, `npx vitest run`). */
function pathRunner(script: string): string[] | null {
  for (const words of commandChain(script) ?? []) {
    const inner = withoutPackageRunner(words);
    const runner = inner?.[0];
    if (!inner || !runner || !PATH_RUNNERS.has(runner)) continue;
    // Only the runner and its options: paths of the root's own would run other packages' tests too.
    if (inner.slice(1).some((word) => !word.startsWith('-') && word !== 'run')) continue;
    return runner === 'vitest' && !inner.includes('run') ? ['npx', 'vitest', 'run', ...inner.slice(1)] : ['npx', ...inner];
  }
  return null;
}

/** The package manager, as the repository names it (`packageManager`) or its lockfile says. */
function managerOf(rootText: string | null, at: ReadonlySet<string>): Manager {
  const field = /"packageManager"\s*:\s*"(npm|pnpm|yarn)@/.exec(rootText ?? '')?.[1] as Manager | undefined;
  if (field) return field;
  if (at.has('pnpm-lock.yaml') || at.has('pnpm-workspace.yaml')) return 'pnpm';
  if (at.has('yarn.lock')) return 'yarn';
  return 'npm';
}

function nameOf(text: string | null): string | null {
  try {
    const name = (JSON.parse(text ?? '') as { name?: unknown }).name;
    return typeof name === 'string' ? name : null;
  } catch {
    return null;
  }
}
