/**
 * Finds the program a command names and what it needs to run: its install folder (bound read-only
 * into the sandbox), the folders to put on PATH there, and which runtime it is (Node gets the
 * permission-model fallback; anything else needs bubblewrap or --allow-unsandboxed).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { SopworksError } from '../../ground/errors.ts';
import { inside } from './path-inside.ts';

const exec = promisify(execFile);

export type Runtime = 'node' | 'python' | 'other';

export interface FoundCommand {
  /** The program file, symlinks resolved. */
  program: string;
  runtime: Runtime;
  /** Folders outside the system's (/usr, /bin, /lib…) the program needs, bound read-only. */
  roots: string[];
  /** Folders to put first on PATH inside the sandbox. */
  binDirs: string[];
}

/** Folders every sandbox already binds read-only. */
export const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

const NODE_PROGRAMS = /^(node|nodejs|npm|npx|yarn|pnpm|corepack)$/;
const PYTHON_PROGRAMS = /^(python[\d.]*|pytest|py\.test|pip[\d.]*)$/;

/** The runtime a command's name alone tells (no file looked at); null when only the program can say. */
export function runtimeByName(name: string): Runtime | null {
  if (NODE_PROGRAMS.test(name)) return 'node';
  if (PYTHON_PROGRAMS.test(name)) return 'python';
  return null;
}

export async function findCommand(argv: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<FoundCommand> {
  const name = argv[0];
  if (!name) throw new SopworksError('TEST_RUN_FAILED', 'The command is empty.', { hint: 'Name a program to run, e.g. node --test.' });
  let found = name.includes('/') ? path.resolve(options.cwd, name) : await searchPath(name, options.env.PATH ?? '');
  if (!found || !(await isExecutable(found))) {
    throw new SopworksError('TEST_RUN_FAILED', `The command "${name}" was not found${name.includes('/') ? '' : ' on PATH'} or is not executable.`, {
      hint: 'The design names a test command that is not installed here; fix the design or install the runner.',
    });
  }
  const shimmed = (await throughPyenvShim(found, name, options)) ?? (await throughRustupProxy(found, options));
  if (shimmed) found = shimmed;
  const program = await fs.realpath(found);
  const home = os.homedir();
  const outsideProject = (dir: string) => !inside(dir, options.cwd);
  const roots = unique([installRoot(found), installRoot(program)].filter((dir) => needsBinding(dir, home) && outsideProject(dir)));
  const runtime = runtimeOf(name, program, await interpreterLine(program));
  const binDirs = [path.dirname(found)].filter(outsideProject);
  if (runtime === 'node') {
    // npm, npx and yarn start `node` by name; the Node that runs sopworks is the one to find.
    const node = await ownNode();
    binDirs.push(path.dirname(node.program));
    roots.push(...node.roots);
  }
  return { program, runtime, roots: unique(roots), binDirs: unique(binDirs.filter((dir) => !SYSTEM_DIRS.some((sys) => inside(dir, sys)))) };
}

/** The Node that runs sopworks, and the folder to bind for it (none when it is in a system folder). */
export async function ownNode(): Promise<{ program: string; roots: string[] }> {
  const program = await fs.realpath(process.execPath);
  return { program, roots: needsBinding(installRoot(program), os.homedir()) ? [installRoot(program)] : [] };
}

async function searchPath(name: string, searchPath: string): Promise<string | null> {
  for (const dir of searchPath.split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, name);
    if (await isExecutable(candidate)) return candidate;
  }
  return null;
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile()) return false;
    await fs.access(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * pyenv's shims are shell scripts that need all of ~/.pyenv; `pyenv which` names the interpreter they
 * would start (honouring the project's .python-version), which is all the sandbox has to see.
 */
async function throughPyenvShim(found: string, name: string, options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<string | null> {
  const shims = path.dirname(found);
  if (path.basename(shims) !== 'shims') return null;
  const pyenvRoot = path.dirname(shims);
  const candidates = [path.join(pyenvRoot, 'bin', 'pyenv'), path.join(pyenvRoot, 'libexec', 'pyenv')];
  let pyenv: string | null = null;
  for (const candidate of candidates) if (!pyenv && (await isExecutable(candidate))) pyenv = candidate;
  if (!pyenv) return null;
  try {
    const { stdout } = await exec(pyenv, ['which', name], {
      cwd: options.cwd,
      env: {
        PATH: options.env.PATH,
        HOME: os.homedir(),
        PYENV_ROOT: pyenvRoot,
        ...(options.env.PYENV_VERSION ? { PYENV_VERSION: options.env.PYENV_VERSION } : {}),
      },
    });
    const resolved = stdout.trim();
    return resolved && (await isExecutable(resolved)) ? resolved : null;
  } catch {
    return null;
  }
}

/**
 * rustup's proxies (cargo, rustc, … in ~/.cargo/bin, links to rustup) choose a toolchain from RUSTUP_HOME
 * (~/.rustup), which the sandbox does not see: `rustup which` names the toolchain's own program (honouring
 * the project's rust-toolchain.toml), and its folder goes first on PATH, so that cargo finds rustc there.
 */
async function throughRustupProxy(found: string, options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<string | null> {
  const rustup = await fs.realpath(found).catch(() => null);
  const name = path.basename(found);
  if (!rustup || path.basename(rustup) !== 'rustup' || name === 'rustup') return null;
  const kept = ['RUSTUP_HOME', 'CARGO_HOME', 'RUSTUP_TOOLCHAIN'].filter((key) => options.env[key]);
  try {
    const { stdout } = await exec(rustup, ['which', name], {
      cwd: options.cwd,
      // A toolchain the project's rust-toolchain.toml names and this machine lacks is not installed from here.
      env: { PATH: options.env.PATH, HOME: os.homedir(), RUSTUP_AUTO_INSTALL: '0', ...Object.fromEntries(kept.map((key) => [key, options.env[key]])) },
      // A rustup that would download it anyway is not waited for.
      timeout: 20_000,
    });
    const resolved = stdout.trim();
    return resolved && (await isExecutable(resolved)) ? resolved : null;
  } catch {
    return null;
  }
}

/** The folder a program is installed in: the parent of its bin/ folder, else its own folder. */
function installRoot(file: string): string {
  const dir = path.dirname(file);
  return path.basename(dir) === 'bin' ? path.dirname(dir) : dir;
}

/** System folders are bound anyway; the root, HOME and HOME's parents would expose far too much. */
function needsBinding(dir: string, home: string): boolean {
  if (SYSTEM_DIRS.some((sys) => inside(dir, sys))) return false;
  if (dir === '/' || inside(home, dir)) return false;
  return true;
}

function runtimeOf(name: string, program: string, shebang: string): Runtime {
  const names = [path.basename(name), path.basename(program)];
  if (names.some((n) => NODE_PROGRAMS.test(n)) || /\bnode\b/.test(shebang)) return 'node';
  if (names.some((n) => PYTHON_PROGRAMS.test(n)) || /\bpython[\d.]*\b/.test(shebang)) return 'python';
  return 'other';
}

/** The `#!` line of a script (empty for a binary): a runner such as jest or pytest is a script of its runtime. */
async function interpreterLine(program: string): Promise<string> {
  const handle = await fs.open(program, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(256), 0, 256, 0);
    const head = buffer.subarray(0, bytesRead).toString('latin1');
    return head.startsWith('#!') ? head.split('\n')[0]! : '';
  } finally {
    await handle.close();
  }
}

const unique = <T>(items: T[]): T[] => [...new Set(items)];
