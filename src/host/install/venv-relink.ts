/**
 * Outside bubblewrap the install runs in a scratch copy of the work tree, and only regular files come
 * back into the project (sandbox/scratch-copy.ts): the venv's interpreter links (`bin/python`,
 * `python3`, `python3.X`, and `lib64`) stay behind, and the console scripts pip wrote name the copy's
 * interpreter in their `#!` line. Once such an install has run, sopworks puts both right on the host:
 * links to the interpreter this python3 really is — asked of the host's python3 itself, never read
 * from a file the install wrote — and `#!` lines that name the project's own venv.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { writeNoFollow } from '../../ground/files/index.ts';

const exec = promisify(execFile);

/** The interpreter and its X.Y, as the venv module would link them (sys.executable of the host's python3). */
async function interpreterOf(python3: string, projectDir: string): Promise<{ executable: string; version: string }> {
  // In the project folder, as the install started it (a pyenv shim chooses by the folder's .python-version).
  const { stdout } = await exec(python3, ['-I', '-S', '-c', 'import sys; print(sys.executable); print("%d.%d" % sys.version_info[:2])'], {
    cwd: projectDir,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/' },
    timeout: 30_000,
  });
  const [executable = '', version = ''] = stdout.trim().split('\n');
  if (!path.isAbsolute(executable) || !/^\d+\.\d+$/.test(version)) throw new Error(`${python3} did not say which interpreter it is`);
  return { executable, version };
}

/** A `#!` line (or pip's `/bin/sh` trampoline for long paths) naming a venv's python elsewhere than `venvBin`. */
const FOREIGN_VENV_PYTHON = /(\/[^\s"'\n]*?)\/\.venv\/bin\/(python[0-9.]*)/;

/**
 * Relinks the project's `.venv` after an install that ran outside bubblewrap; returns what it could
 * not do, one line each (a link on the way: sopworks never writes through one).
 */
export async function relinkVenv(projectDir: string, python3: string): Promise<string[]> {
  const problems: string[] = [];
  const bin = '.venv/bin';
  for (const folder of ['.venv', bin]) {
    const stat = await fs.lstat(path.join(projectDir, folder)).catch(() => null);
    if (!stat?.isDirectory())
      return [`${folder} is ${stat?.isSymbolicLink() ? 'a symbolic link; sopworks never writes through one' : 'not a folder the install made'}`];
  }
  const binDir = path.join(projectDir, '.venv', 'bin');
  const { executable, version } = await interpreterOf(python3, projectDir);
  for (const name of ['python', 'python3', `python${version}`]) {
    const link = path.join(binDir, name);
    if (!(await fs.lstat(link).catch(() => null))) await fs.symlink(executable, link);
  }
  const lib = await fs.lstat(path.join(projectDir, '.venv', 'lib')).catch(() => null);
  if (process.platform === 'linux' && lib?.isDirectory() && !(await fs.lstat(path.join(projectDir, '.venv', 'lib64')).catch(() => null))) {
    await fs.symlink('lib', path.join(projectDir, '.venv', 'lib64'));
  }
  const ownPython = path.join(await fs.realpath(projectDir), '.venv', 'bin', 'python');
  for (const entry of await fs.readdir(binDir, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = `${bin}/${entry.name}`;
    const content = await fs.readFile(path.join(projectDir, file));
    const head = content.subarray(0, 1024).toString('latin1');
    if (!head.startsWith('#!')) continue;
    const match = FOREIGN_VENV_PYTHON.exec(head);
    if (!match || `${match[1]}/.venv/bin/python` === ownPython) continue;
    const fixed = Buffer.concat([Buffer.from(head.replace(FOREIGN_VENV_PYTHON, ownPython), 'latin1'), content.subarray(Math.min(1024, content.length))]);
    const mode = (await fs.lstat(path.join(projectDir, file))).mode & 0o777;
    const refused = await writeNoFollow(projectDir, file, fixed, mode);
    if (refused) problems.push(refused);
  }
  return problems;
}
