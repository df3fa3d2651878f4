/**
 * The installer is the host's: the program an install runs is found on sopworks' own PATH before the
 * sandbox starts and handed to it as an absolute path, so nothing in the project — a committed
 * `.venv/bin/npm`, a `node_modules/.bin`, a folder of the project that happens to be on the user's
 * PATH — can stand in for it. Searched: only absolute PATH folders, none of them a package's
 * `node_modules` folder and none inside the project (resolved through links); the program found,
 * links resolved, must lie outside the project too.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { SopworksError } from '../../ground/errors.ts';
import { findCommand, inside } from '../sandbox/index.ts';
import type { InstallPlan } from './install-plan.ts';
import { MANAGER_INSTALL } from './manager-install.ts';
import type { ManagerProgram } from './manager-program.ts';
import { NPM_INSTALL } from './npm-install.ts';
import { type ManagerChoice, managerName } from './package-manager.ts';

/** What an install runs: npm for package.json, Python (with the pip that came with it) for the rest. */
export type InstallerProgram = 'npm' | 'python3';

/** The installer's absolute path on this machine, outside the project; throws when there is none. */
export async function resolveInstaller(name: InstallerProgram, projectDir: string, hostPath: string): Promise<string> {
  const project = await fs.realpath(projectDir);
  const folders: string[] = [];
  for (const dir of hostPath.split(path.delimiter)) {
    if (!path.isAbsolute(dir) || dir.split(path.sep).includes('node_modules')) continue;
    const real = await fs.realpath(dir).catch(() => null);
    if (real && !inside(real, project)) folders.push(dir);
  }
  const notFound = new SopworksError('TEST_RUN_FAILED', `The installer "${name}" was not found on PATH outside the project.`, {
    hint:
      name === 'npm'
        ? 'Install Node.js with npm on this machine (sopworks runs the npm found on its own PATH, never one of the project).'
        : 'Install python3 with its venv module (Debian, Ubuntu: apt-get install python3 python3-venv); sopworks runs the python3 found on its own PATH, never one of the project.',
  });
  let program: string;
  try {
    ({ program } = await findCommand([name], { cwd: project, env: { ...process.env, PATH: folders.join(path.delimiter) } }));
  } catch {
    throw notFound;
  }
  if (inside(program, project)) throw notFound;
  return program;
}

export interface InstallerCommand {
  argv: string[];
  /** Folders outside the system's the installer's program needs to see (a package manager in sopworks' cache). */
  programRoots: string[];
  /** Which installer ran and where it came from, for the report; null for npm and python3. */
  note: string | null;
}

/**
 * The command line of a plan, its installer resolved: npm is started by the Node that runs sopworks
 * (npm-install.ts), pnpm and Yarn by the same Node through their wrapper (manager-install.ts) from
 * where `manager` found or fetched them, Python by its own absolute path. For Python, the project's
 * `.venv` is removed first (never through a link): the install makes the venv anew, trusting nothing
 * a repository committed there or an earlier test round changed.
 */
export async function installerCommand(
  plan: InstallPlan,
  projectDir: string,
  hostPath: string,
  manager: (choice: ManagerChoice) => Promise<ManagerProgram>,
): Promise<InstallerCommand> {
  const [name, ...args] = plan.argv;
  const node = await fs.realpath(process.execPath);
  if (plan.manager && plan.manager.manager !== 'npm') {
    const program = await manager(plan.manager);
    const settings = JSON.stringify({ ...plan.wrapper, node: program.node });
    return {
      argv: [node, '-e', MANAGER_INSTALL, plan.manager.manager, settings, program.entry, ...args],
      programRoots: [program.root],
      note: `${managerName(plan.manager.manager)} ${program.version}, ${program.from}`,
    };
  }
  const program = await resolveInstaller(name === 'npm' ? 'npm' : 'python3', projectDir, hostPath);
  if (name === 'npm') return { argv: [node, '-e', NPM_INSTALL, program, ...args], programRoots: [], note: null };
  await fs.rm(path.join(projectDir, '.venv'), { recursive: true, force: true });
  return { argv: [program, ...args], programRoots: [], note: null };
}
