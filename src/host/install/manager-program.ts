/**
 * The program that installs a pnpm or Yarn repository, found outside the project as npm is
 * (installer-programs.ts): the one on sopworks' own PATH when it is the version the repository names
 * (or, when it names none, one that reads its lockfile); else the one sopworks keeps in its cache
 * (`~/.cache/sopworks/package-managers/`, SOPWORKS_PACKAGE_MANAGERS); else none — and the caller
 * fetches it (provision-manager.ts). A corepack shim is never run: it would fetch a manager itself,
 * outside the egress proxy.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import semver from 'semver';
import { cacheFolder } from '../../ground/files/index.ts';
import { findCommand, inside } from '../sandbox/index.ts';
import type { ManagerChoice, NodeManager } from './package-manager.ts';

const exec = promisify(execFile);

/** Each manager as it is published on an npm registry: the package, and its entry script in it. */
export const MANAGER_PACKAGES: Record<Exclude<NodeManager, 'npm'>, { name: string; entry: string; bin: string }> = {
  pnpm: { name: 'pnpm', entry: 'bin/pnpm.cjs', bin: 'pnpm' },
  'yarn-classic': { name: 'yarn', entry: 'bin/yarn.js', bin: 'yarn' },
  'yarn-berry': { name: '@yarnpkg/cli-dist', entry: 'bin/yarn.js', bin: 'yarn' },
};

export interface ManagerProgram {
  /** The file to run. */
  entry: string;
  /** A Node script, started by the Node that runs sopworks; false: a program of its own. */
  node: boolean;
  version: string;
  /** The folder the sandbox must show (read-only) for it to run. */
  root: string;
  /** Where it came from, as a person reads it. */
  from: string;
}

/** Where sopworks keeps the package managers it fetched. */
export const managersCache = (env: NodeJS.ProcessEnv): string => cacheFolder(env, 'SOPWORKS_PACKAGE_MANAGERS', 'package-managers');

/** A cache entry's folder name: `pnpm@10.33.0`, `@yarnpkg+cli-dist@4.18.1`. */
export const cacheEntryName = (pkg: string, version: string): string => `${pkg.replace('/', '+')}@${version}`;

/** Written into a cache entry once its install was checked: what it holds. */
export const CACHE_MARKER = '.sopworks-package-manager.json';

/** Whether a version of `manager` is one the repository can be installed with. */
export function fits(choice: ManagerChoice, version: string): boolean {
  if (choice.version !== null) return version === choice.version;
  const major = semver.major(semver.coerce(version) ?? '0.0.0');
  if (choice.manager === 'yarn-classic' && major !== 1) return false;
  if (choice.manager === 'yarn-berry' && major < 2) return false;
  return semver.satisfies(version, `^${choice.range}`, { includePrerelease: true }) || choice.range === '*';
}

/** The program on PATH or in the cache; null when neither has a version that fits. */
export async function findManagerProgram(choice: ManagerChoice, projectDir: string, env: NodeJS.ProcessEnv): Promise<ManagerProgram | null> {
  if (choice.manager === 'npm') throw new Error('npm is the host npm (installer-programs.ts)');
  return (await onPath(choice, projectDir, env)) ?? (await inCache(choice, env));
}

async function onPath(choice: ManagerChoice, projectDir: string, env: NodeJS.ProcessEnv): Promise<ManagerProgram | null> {
  const { bin } = MANAGER_PACKAGES[choice.manager as Exclude<NodeManager, 'npm'>];
  const project = await fs.realpath(projectDir);
  const folders: string[] = [];
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!path.isAbsolute(dir) || dir.split(path.sep).includes('node_modules')) continue;
    const real = await fs.realpath(dir).catch(() => null);
    if (real && !inside(real, project)) folders.push(dir);
  }
  let program: string;
  try {
    ({ program } = await findCommand([bin], { cwd: os.tmpdir(), env: { ...env, PATH: folders.join(path.delimiter) } }));
  } catch {
    return null;
  }
  if (inside(program, project) || /[/\\]corepack[/\\]/.test(program)) return null;
  const node = /\.(c?js|mjs)$/.test(program) || (await firstLine(program)).includes('node');
  const version = await versionOf(node ? [process.execPath, program] : [program]);
  if (!version || !fits(choice, version)) return null;
  const root = path.basename(path.dirname(program)) === 'bin' ? path.dirname(path.dirname(program)) : path.dirname(program);
  return { entry: program, node, version, root, from: 'found on PATH' };
}

async function inCache(choice: ManagerChoice, env: NodeJS.ProcessEnv): Promise<ManagerProgram | null> {
  const pkg = MANAGER_PACKAGES[choice.manager as Exclude<NodeManager, 'npm'>];
  const root = managersCache(env);
  const prefix = `${pkg.name.replace('/', '+')}@`;
  const versions = (await fs.readdir(root).catch(() => [] as string[]))
    .filter((name) => name.startsWith(prefix))
    .map((name) => name.slice(prefix.length))
    .filter((version) => semver.valid(version) && fits(choice, version))
    .sort(semver.rcompare);
  for (const version of versions) {
    const entryDir = path.join(root, cacheEntryName(pkg.name, version));
    const marker = await fs.readFile(path.join(entryDir, CACHE_MARKER), 'utf8').catch(() => null);
    if (!marker) continue;
    const packageDir = path.join(entryDir, 'node_modules', pkg.name);
    return { entry: path.join(packageDir, pkg.entry), node: true, version, root: packageDir, from: "from sopworks' cache of package managers" };
  }
  return null;
}

async function firstLine(file: string): Promise<string> {
  const handle = await fs.open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(128), 0, 128, 0);
    return buffer.subarray(0, bytesRead).toString('latin1').split('\n')[0] ?? '';
  } finally {
    await handle.close();
  }
}

/** `<program> --version`, run in an empty folder of its own (a Yarn reads the folder's configuration). */
async function versionOf(argv: string[]): Promise<string | null> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sopworks-manager-version-'));
  try {
    const { stdout } = await exec(argv[0]!, [...argv.slice(1), '--version'], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, COREPACK_ENABLE_STRICT: '0', YARN_IGNORE_PATH: '1' },
      timeout: 30_000,
    });
    return semver.valid(stdout.trim().split('\n').at(-1)?.trim() ?? '') ?? null;
  } catch {
    return null;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
