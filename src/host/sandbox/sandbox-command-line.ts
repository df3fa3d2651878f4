/**
 * The command line a sandboxed run spawns, outermost layer first: a shell that joins the pids cgroup →
 * prlimit → bubblewrap (with a reporter of leftover processes inside) or the network layer's prefix →
 * the command; with the clean environment of sandbox-environment.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { bubblewrapArgs, etcFiles, SANDBOX_PROJECT, systemLayout } from './bubblewrap.ts';
import { insideProject } from './git-dir-guard.ts';
import { diskLimits } from './limits.ts';
import { nodePermissionOptions } from './node-permissions.ts';
import { ownNetworkLayer } from './own-network.ts';
import { inside } from './path-inside.ts';
import { projectVenv } from './project-venv.ts';
import { prlimitArgs } from './rlimits.ts';
import { describeEnvironment, sandboxEnvironment } from './sandbox-environment.ts';
import type { SandboxSetup } from './sandbox-request.ts';

export interface CommandLine {
  argv: string[];
  /** The environment the outermost process is spawned with. */
  env: Record<string, string>;
  /** What sopworks set for the command, as a report lists it (sandbox-environment.ts). */
  environment: string[];
}

/** What the wrapper prints, with exit code 125, when it cannot join the pids cgroup. */
export const CGROUP_JOIN_FAILED = 'sopworks: could not join the pids cgroup';

/** How the sandbox's wrapper joins the pids cgroup before anything else runs. */
const JOIN_CGROUP = `echo $$ > "$1" || { echo "${CGROUP_JOIN_FAILED} $1" >&2; exit 125; }; shift; exec "$@"`;

/**
 * Inside bubblewrap's PID namespace, the command's parent: once the command exits, it names every
 * process of the namespace still running (bubblewrap then kills them all), each on a line starting
 * with the run's token, which the runner turns into violations and removes from the output.
 */
const REPORT_LEFTOVERS = [
  'token=$1; shift',
  '"$@"',
  'status=$?',
  "list=''",
  'for p in /proc/[0-9]*; do pid=${p#/proc/}; if [ "$pid" != 1 ] && [ "$pid" != $$ ]; then list="$list $p"; fi; done',
  // A process caught between fork and exec still shows its parent's command: let it settle first.
  'if [ -n "$list" ]; then sleep 0.2; fi',
  'for p in $list; do',
  '  cmd=$(tr "\\0" " " < "$p/cmdline" 2>/dev/null)',
  '  if [ -n "$cmd" ]; then echo "$token outlived: $cmd" >&2; fi',
  'done',
  'exit $status',
].join('\n');

export async function buildCommandLine(setup: SandboxSetup): Promise<CommandLine> {
  const { request, mode, projectDir, found, runId, hostTmp, cgroup } = setup;
  const env = sandboxEnvironment({ mode, runId, hostTmp, binDirs: found.binDirs, installer: request.installer === true });
  if (request.installer) {
    // The host's installer: nothing of the project (or of its scratch copy) on its PATH.
    env.PATH = withoutFoldersOf(env.PATH!, [projectDir, setup.workDir, SANDBOX_PROJECT]);
  } else {
    const venv = projectVenv(projectDir, mode === 'bubblewrap' ? SANDBOX_PROJECT : projectDir);
    if (venv?.installed) Object.assign(env, { PATH: `${venv.bin}:${env.PATH}`, VIRTUAL_ENV: venv.root });
    if (venv && venv.sourcePath.length > 0) env.PYTHONPATH = venv.sourcePath.join(':');
  }
  if (mode === 'node-permissions') {
    env.NODE_OPTIONS = nodePermissionOptions({ projectDir: setup.workDir, tmpDir: hostTmp! });
  }
  const readOnly = [...['.git', '.sopworks'].filter((name) => fs.existsSync(path.join(projectDir, name))), ...insideProject(setup.gitDirs, projectDir)];
  const network = await ownNetworkLayer(mode, request.ownNetwork, request.argv);
  Object.assign(env, network.env);
  let argv =
    mode === 'bubblewrap'
      ? [
          'bwrap',
          ...bubblewrapArgs(
            {
              projectDir,
              roots: [...found.roots, ...network.roots],
              env,
              readOnly,
              // After the private /tmp is mounted, so a folder under the host's /tmp shows too.
              binds: [...network.binds, ...(request.programRoots ?? []).map((root) => ({ source: root, target: root, readOnly: true }))],
              tmpBytes: diskLimits(request.limits).diskMb * 1024 * 1024,
              argv: ['/bin/sh', '-c', REPORT_LEFTOVERS, 'sopworks-sandbox', runId, ...network.argv],
            },
            systemLayout(),
            etcFiles(),
          ),
        ]
      : [...network.prefix, ...network.argv];
  argv = [...prlimitArgs(request.limits, setup.nproc), ...argv];
  if (cgroup) argv = ['/bin/sh', '-c', JOIN_CGROUP, 'sopworks-sandbox', cgroup.procsFile, ...argv];
  // bubblewrap itself gets no marker: its own processes outlive the command by design while they
  // tear the namespace down; the command's processes get it from --setenv.
  return { argv, env: mode === 'bubblewrap' ? { PATH: process.env.PATH ?? '/usr/bin:/bin' } : env, environment: describeEnvironment(env) };
}

/** A PATH without the folders inside any of `places` — links resolved, so a link into the project counts as in it. */
export function withoutFoldersOf(searchPath: string, places: readonly string[]): string {
  const real = (dir: string) => {
    try {
      return fs.realpathSync(dir);
    } catch {
      return dir;
    }
  };
  return searchPath
    .split(':')
    .filter((dir) => ![dir, real(dir)].some((form) => places.some((place) => inside(form, place))))
    .join(':');
}
