/**
 * The clean environment a sandboxed command runs with, and what of it a report may say. Only what a
 * runner needs and nothing from sopworks' environment that could carry a secret — and, for the project's
 * own commands (its tests, its program), nothing that changes what the code under test does: no
 * NO_COLOR, no CI, no locale of our choosing. A colour library's tests see what they would see on the
 * user's machine; only the host's installer, whose output sopworks reads, gets the quiet settings.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SANDBOX_HOME, SANDBOX_TMP } from './bubblewrap.ts';
import { RUN_MARKER } from './outlived.ts';
import type { SandboxMode } from './sandbox-report.ts';

/** The system's folders on PATH inside bubblewrap, after the program's own. */
const SYSTEM_PATH = ['/usr/local/bin', '/usr/bin', '/bin', '/usr/local/sbin', '/usr/sbin', '/sbin'];

/** Settings of the user's machine a run keeps as they are (absent ones stay absent). */
const KEPT_FROM_HOST = ['LANG', 'LC_ALL', 'LC_CTYPE', 'TZ'];

/** Only for the host's installer: quiet, plain output sopworks reads (they change what npm prints, not what a test does). */
const INSTALLER_ONLY = { NO_COLOR: '1', CI: 'true' };

export interface EnvironmentRequest {
  mode: SandboxMode;
  runId: string;
  /** The command's private temp folder outside bubblewrap (its HOME and TMPDIR); null under it. */
  hostTmp: string | null;
  /** Folders to put first on PATH (the program's own, outside the system's). */
  binDirs: string[];
  /** The host's installer (host/install/), not a command of the project. */
  installer: boolean;
}

export function sandboxEnvironment(request: EnvironmentRequest): Record<string, string> {
  const { mode, hostTmp } = request;
  const home = hostTmp ? path.join(hostTmp, 'home') : SANDBOX_HOME;
  const tmp = hostTmp ? path.join(hostTmp, 'tmp') : SANDBOX_TMP;
  if (hostTmp) {
    fs.mkdirSync(home);
    fs.mkdirSync(tmp);
  }
  const env: Record<string, string> = {
    // The program's own folders first, outside bubblewrap too: rustup's toolchain, so that its cargo finds its rustc, not the proxy.
    PATH: [
      ...request.binDirs,
      ...(mode === 'bubblewrap'
        ? SYSTEM_PATH
        : pathWithoutPackageBins(process.env.PATH ?? '')
            .split(':')
            .filter(Boolean)),
    ].join(':'),
    HOME: home,
    TMPDIR: tmp,
    // No registry tokens or CA files from the host's npm and pip configuration.
    npm_config_globalconfig: '/dev/null',
    npm_config_userconfig: path.join(home, '.npmrc'),
    npm_config_update_notifier: 'false',
    PIP_CONFIG_FILE: '/dev/null',
    PIP_DISABLE_PIP_VERSION_CHECK: '1',
    [RUN_MARKER]: request.runId,
    ...(request.installer ? INSTALLER_ONLY : {}),
  };
  for (const name of KEPT_FROM_HOST) if (process.env[name]) env[name] = process.env[name]!;
  // Outside bubblewrap, pyenv's shims (on the host PATH) need to know where pyenv is.
  if (mode !== 'bubblewrap') for (const name of ['PYENV_ROOT', 'PYENV_VERSION']) if (process.env[name]) env[name] = process.env[name]!;
  return env;
}

/**
 * The host's PATH for a run outside bubblewrap, without the folders npm and npx put first when sopworks
 * itself runs from a script (`…/node_modules/.bin`, npx's cache): the project's commands are the project's,
 * and a tool sopworks happens to have installed (its own mocha) must not stand in for a missing one.
 */
export function pathWithoutPackageBins(hostPath: string): string {
  return hostPath
    .split(':')
    .filter((dir) => path.isAbsolute(dir) && !dir.split(path.sep).includes('node_modules'))
    .join(':');
}

/** Where a value comes from, in words a reader of the report can check, for the names whose value is a place of this machine. */
const PLACES: Record<string, string> = {
  HOME: `${SANDBOX_HOME} (empty, private to the run)`,
  TMPDIR: `${SANDBOX_TMP} (empty, private to the run)`,
  PATH: "the runner's own folder, then the system's",
  PYENV_ROOT: "kept from sopworks' environment (pyenv's shims need it)",
  VIRTUAL_ENV: "the project's .venv",
  PYTHONPATH: "the project's source folders (a src layout), as its .venv has them",
  NODE_OPTIONS: "Node's permission model (the sandbox's fallback)",
  [RUN_MARKER]: "a random id marking the run's processes (to stop what outlives it)",
};

/**
 * What sopworks set, one `NAME=value` a line, as the test report lists it: the same on every machine
 * (a place is said in words, never as a path of this machine), in the order a reader scans.
 */
export function describeEnvironment(env: Readonly<Record<string, string>>): string[] {
  return Object.keys(env)
    .sort((a, b) => a.localeCompare(b))
    .map((name) => {
      if (name in PLACES) return `${name}: ${PLACES[name]}`;
      if (name === 'npm_config_userconfig') return `${name}=${SANDBOX_HOME}/.npmrc`;
      if (KEPT_FROM_HOST.includes(name)) return `${name}=${env[name]} (kept from your environment)`;
      return `${name}=${env[name]}`;
    });
}
