/**
 * A Python project's own virtual environment (`.venv`, made by the dependency install): the commands
 * the sandbox runs in the project find its `python3`, `pip` and tools first, as an activated venv would,
 * and the project's source folders (a src layout's `src`, named by the install's `.pth`) before any
 * installed package — whichever Python runs them: a tool the venv lacks (its install failed, and the
 * tests run without it) is the system's, whose interpreter reads no `.pth` of the venv's, and would
 * otherwise import a copy of the project installed on the machine, or nothing.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The file the install writes in the venv's site-packages, a source folder a line (python-install.ts). */
export const PROJECT_PTH = '_sopworks_project.pth';

export interface ProjectVenv {
  bin: string;
  root: string;
  sourcePath: string[];
  /**
   * Whether the install put any package in it. One that put none (it failed: no index served its
   * requirements) is not put first on PATH: its `python3` has nothing the system's lacks, and lacks the
   * runner the system's may have — `python3 -m pytest` would find no pytest (trial sqlparse49).
   */
  installed: boolean;
}

/** The venv's folders as the sandboxed command sees them, or null when the project has none. */
export function projectVenv(projectDir: string, projectDirInSandbox: string): ProjectVenv | null {
  const venv = path.join(projectDir, '.venv');
  if (!fs.existsSync(path.join(venv, 'pyvenv.cfg'))) return null;
  const root = path.join(projectDirInSandbox, '.venv');
  const sites = sitePackages(venv);
  return {
    root,
    bin: path.join(root, 'bin'),
    sourcePath: sourceFolders(venv, sites).map((folder) => path.join(projectDirInSandbox, folder)),
    installed: sites.some((site) => fs.readdirSync(site).some((name) => name !== PROJECT_PTH && name !== '__pycache__')),
  };
}

/** The venv's site-packages folders (one per Python version it was made for). */
function sitePackages(venv: string): string[] {
  const lib = path.join(venv, 'lib');
  const versions = fs.existsSync(lib) ? fs.readdirSync(lib).filter((name) => /^python\d/.test(name)) : [];
  return versions.map((version) => path.join(lib, version, 'site-packages')).filter((site) => fs.lstatSync(site, { throwIfNoEntry: false })?.isDirectory());
}

/**
 * The project folders the install's `.pth` names (relative to site-packages), as folders of the project:
 * a line that leaves the project, or names no folder of it, is not a source folder of it.
 */
function sourceFolders(venv: string, sites: readonly string[]): string[] {
  const folders: string[] = [];
  for (const site of sites) {
    const pth = path.join(site, PROJECT_PTH);
    if (!fs.lstatSync(pth, { throwIfNoEntry: false })?.isFile()) continue;
    for (const line of fs.readFileSync(pth, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const folder = path.relative(path.dirname(venv), path.resolve(site, line.trim()));
      if (folder.startsWith('..') || path.isAbsolute(folder) || folder === '') continue;
      if (!fs.lstatSync(path.join(path.dirname(venv), folder), { throwIfNoEntry: false })?.isDirectory()) continue;
      if (!folders.includes(folder)) folders.push(folder);
    }
  }
  return folders;
}
