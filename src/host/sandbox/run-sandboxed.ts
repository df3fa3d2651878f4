/**
 * The one way generated code runs (DESIGN §4): a command in the project, isolated as well as this
 * machine allows, bounded in time, CPU, memory, processes and output, with a clean environment, and
 * every process of it killed at the end. The outcome says how it ran (mode), which limits it hit,
 * what it tried that was refused (violations), and what the mode could not stop here (gaps).
 *
 * Layers, outermost first: a pids cgroup (when this process may make one) → prlimit → bubblewrap or
 * Node's permission model (or neither, when allowed) → the command.
 *
 * Only the work tree is writable, in every mode: under bubblewrap `.git/` and `.sopworks/` are bound
 * read-only; otherwise the command runs in a scratch copy of the work tree without them, and what it
 * wrote is copied back. Whatever the mode, the repository's metadata and the run's record are
 * snapshotted before and compared after (integrity.ts), and so is a git dir outside the project that
 * the work tree's `.git` file points into — a change run's repository (git-dir-guard.ts): a change is
 * put back and reported as an `integrity` violation, on which the run stops. A caller in a run holds
 * the run's own commits meanwhile (`withCommitsHeld`), so that what changed is the command's doing.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SopworksError } from '../../ground/errors.ts';
import { bubblewrapArgs, bubblewrapAvailability, etcFiles, SANDBOX_HOME, SANDBOX_PROJECT, SANDBOX_TMP, systemLayout, type Availability } from './bubblewrap.ts';
import { chooseMode, type ModeSetting } from './choose-mode.ts';
import { findCommand } from './find-command.ts';
import type { SandboxLimits } from './limits.ts';
import { nodePermissionOptions } from './node-permissions.ts';
import { describeLeftovers, killOutlived, killProcess, RUN_MARKER, takeLeftoverLines } from './outlived.ts';
import { createPidsCgroup } from './pids-cgroup.ts';
import { nodePermissionAvailability } from './probe-node-permissions.ts';
import { limitsInOutput, violationsInOutput } from './read-evidence.ts';
import { nprocBound, prlimitArgs } from './rlimits.ts';
import { runProcess } from './run-process.ts';
import type { LimitKind, SandboxMode, SandboxReport, Violation } from './sandbox-report.ts';
import { redactSecrets, secretsOf } from './secrets.ts';
import { linksOutside } from './symlinks-outside.ts';
import { NOT_RESTORED, restoreProtected, snapshotProtected, type AcceptLine } from './integrity.ts';
import { copyBack, makeScratch, measureTree, type Scratch } from './scratch-copy.ts';
import { diskLimits } from './limits.ts';
import { runningTest } from './running-test.ts';
import { projectVenv } from './project-venv.ts';
import { sandboxView, type HostPlaces } from './machine-paths.ts';
import { ownNetworkLayer, type OwnNetwork } from './own-network.ts';
import { gitDirsToGuard, insideProject, restoreGitDir, snapshotGitDir, unguarded } from './git-dir-guard.ts';

export interface SandboxRequest {
  argv: readonly string[];
  projectDir: string;
  limits: SandboxLimits;
  setting: ModeSetting;
  allowUnsandboxed: boolean;
  /**
   * A network namespace of the command's own in every mode (refused where none can be made), its only
   * way out the egress proxy when one is given: a dependency install. Absent: no network under
   * bubblewrap; the weaker modes cannot block it and say so.
   */
  ownNetwork?: OwnNetwork;
  /**
   * Whether a line appended to the run's board or exchange log while the command ran is sopworks' own
   * (a run goes on posting meanwhile); absent: none may be appended (integrity.ts).
   */
  acceptRecordLine?: AcceptLine;
  /** Told why the run is not under bubblewrap, before it starts (print it loudly). */
  onNotice?: (notice: string) => void;
}

export interface SandboxOutcome extends SandboxReport {
  exitCode: number | null;
  /** The signal that ended the command (under bubblewrap, read from its 128+N exit code). */
  signal: string | null;
  timedOut: boolean;
  /** The tail of stdout and stderr, secrets redacted, paths as bubblewrap shows them in every mode (machine-paths.ts). */
  output: string;
  truncated: boolean;
  /** Why the run was not under bubblewrap; null when it was. */
  notice: string | null;
}

/** How the sandbox's wrapper joins the pids cgroup before anything else runs. */
const JOIN_CGROUP = 'echo $$ > "$1" || { echo "sopworks: could not join the pids cgroup $1" >&2; exit 125; }; shift; exec "$@"';

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

export async function runSandboxed(request: SandboxRequest): Promise<SandboxOutcome> {
  const projectDir = await fsp.realpath(request.projectDir).catch(() => {
    throw new SopworksError('TEST_RUN_FAILED', `The project folder ${request.projectDir} does not exist.`, { hint: 'Pass the folder of a generated project.' });
  });
  return runInSandbox(request, projectDir, await gitDirsToGuard(projectDir));
}

async function runInSandbox(request: SandboxRequest, projectDir: string, gitDirs: string[]): Promise<SandboxOutcome> {
  const found = await findCommand(request.argv, { cwd: projectDir, env: process.env });
  const notNeeded: Availability = { available: false, reason: 'not needed' };
  const [bubblewrap, nodePermissions] = await Promise.all([
    request.setting === 'fallback' ? notNeeded : bubblewrapAvailability(),
    found.runtime === 'node' ? nodePermissionAvailability() : notNeeded,
  ]);
  const { mode, notice } = chooseMode({
    setting: request.setting,
    bubblewrap,
    nodePermissions,
    runtime: found.runtime,
    allowUnsandboxed: request.allowUnsandboxed,
    command: request.argv.join(' '),
  });
  if (notice) request.onNotice?.(notice);

  const { limits } = request;
  const disk = diskLimits(limits);
  const runId = randomUUID();
  const snapshot = await snapshotProtected(projectDir);
  const guarded = await Promise.all(gitDirs.map(snapshotGitDir));
  const sizeBefore = await measureTree(projectDir, Number.MAX_SAFE_INTEGER);
  const hostTmp = mode === 'bubblewrap' ? null : await fsp.mkdtemp(path.join(os.tmpdir(), 'sopworks-sandbox-'));
  let scratch: Scratch | null = null;
  const cgroup = await createPidsCgroup(limits.maxProcesses);
  const nproc = await nprocBound(limits.maxProcesses);
  /** Commands of the processes still running when the command ended. */
  const leftovers: string[] = [];
  try {
    // Outside bubblewrap nothing else keeps the code off .git/ and .sopworks/: it gets a copy without them.
    if (mode !== 'bubblewrap') {
      scratch = await makeScratch(projectDir).catch((error: unknown) => {
        throw new SopworksError(
          'TEST_RUN_FAILED',
          `Could not copy the work tree of ${projectDir} to run "${request.argv.join(' ')}" outside bubblewrap: ${(error as Error).message}`,
          {
            hint: 'Remove what cannot be copied (a socket, a pipe), or install bubblewrap, which needs no copy.',
          },
        );
      });
    }
    const workDir = scratch?.dir ?? projectDir;
    const env = sandboxEnvironment(mode, runId, hostTmp, found.binDirs);
    const venv = projectVenv(projectDir, mode === 'bubblewrap' ? SANDBOX_PROJECT : projectDir);
    if (venv) Object.assign(env, { PATH: `${venv.bin}:${env.PATH}`, VIRTUAL_ENV: venv.root });
    if (mode === 'node-permissions') {
      env.NODE_OPTIONS = nodePermissionOptions({ projectDir: workDir, tmpDir: hostTmp! });
    }
    const readOnly = [...['.git', '.sopworks'].filter((name) => fs.existsSync(path.join(projectDir, name))), ...insideProject(gitDirs, projectDir)];
    const network = await ownNetworkLayer(mode, request.ownNetwork, request.argv);
    Object.assign(env, network.env);
    let command =
      mode === 'bubblewrap'
        ? [
            'bwrap',
            ...bubblewrapArgs(
              {
                projectDir,
                roots: [...found.roots, ...network.roots],
                env,
                readOnly,
                binds: network.binds,
                tmpBytes: disk.diskMb * 1024 * 1024,
                argv: ['/bin/sh', '-c', REPORT_LEFTOVERS, 'sopworks-sandbox', runId, ...network.argv],
              },
              systemLayout(),
              etcFiles(),
            ),
          ]
        : [...network.prefix, ...network.argv];
    command = [...prlimitArgs(limits, nproc), ...command];
    if (cgroup) command = ['/bin/sh', '-c', JOIN_CGROUP, 'sopworks-sandbox', cgroup.procsFile, ...command];
    // bubblewrap itself gets no marker: its own processes outlive the command by design while they
    // tear the namespace down; the command's processes get it from --setenv.
    const spawnEnv = mode === 'bubblewrap' ? { PATH: process.env.PATH ?? '/usr/bin:/bin' } : env;

    let result: Awaited<ReturnType<typeof runProcess>>;
    try {
      result = await runProcess(command, {
        cwd: workDir,
        env: spawnEnv,
        timeoutMs: limits.wallSeconds * 1000,
        maxOutputBytes: limits.outputKb * 1024,
        onTimeout: async () => cgroup?.killAll(),
        afterExit: async () => {
          const members = (await cgroup?.members()) ?? [];
          const marked = await killOutlived(runId);
          leftovers.push(...marked.map((p) => p.command));
          // In the cgroup but without the marker: a process that cleared its environment. (Under
          // bubblewrap the reporter inside names those; the cgroup still holds bubblewrap's own.)
          for (const pid of mode === 'bubblewrap' ? [] : members.filter((pid) => !marked.some((p) => p.pid === pid))) {
            const killed = await killProcess(pid);
            if (killed) leftovers.push(killed.command);
          }
          await cgroup?.killAll();
        },
      });
    } catch (error) {
      throw new SopworksError('TEST_RUN_FAILED', `Could not start "${request.argv.join(' ')}" in the sandbox: ${(error as Error).message}`, {
        hint: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'prlimit (util-linux) must be installed: it applies the CPU and memory limits.' : undefined,
      });
    }
    if (result.exitCode === 125 && result.output.includes('sopworks: could not join the pids cgroup')) {
      throw new SopworksError('TEST_RUN_FAILED', `Could not start "${request.argv.join(' ')}" in the sandbox: ${result.output.trim()}`, {
        hint: 'The pids cgroup this process made is not writable after all; report this with the output of `cat /proc/self/cgroup`.',
      });
    }
    const signal = result.signal ?? (mode === 'bubblewrap' ? signalOfExitCode(result.exitCode) : null);
    const reported = takeLeftoverLines(result.output, runId);
    const secrets = redactSecrets(reported.output, secretsOf(process.env));

    const limitsHit = new Set<LimitKind>(limitsInOutput(secrets.output));
    if (result.timedOut) limitsHit.add('time');
    if (signal === 'SIGXCPU') limitsHit.add('cpu');
    if (signal === 'SIGXFSZ') limitsHit.add('disk');
    // Many small files, or space: measured after the run (the sandbox's /tmp is a bounded tmpfs).
    const sizeAfter = await measureTree(workDir, sizeBefore.files + disk.maxFiles);
    const overDisk = sizeAfter.files - sizeBefore.files > disk.maxFiles || sizeAfter.bytes - sizeBefore.bytes > disk.diskMb * 1024 * 1024;
    if (overDisk) limitsHit.add('disk');
    if (await cgroup?.limitHit()) limitsHit.add('processes');
    if (result.truncated) limitsHit.add('output');

    const sandboxProjectDir = mode === 'bubblewrap' ? SANDBOX_PROJECT : workDir;
    const violations: Violation[] = violationsInOutput(secrets.output, {
      mode,
      projectDir: workDir,
      sandboxProjectDir,
      tmpDir: hostTmp,
      existsOnHost: (file) => fs.existsSync(file),
    });
    for (const detail of describeLeftovers([reported.commands, leftovers])) violations.push({ kind: 'outlived', detail });
    for (const link of await linksOutside(workDir)) {
      violations.push({
        kind: 'symlink',
        detail: `${link.link} -> ${link.target.split(workDir).join('<project>')} points outside the project (sopworks will not write through it)`,
      });
    }
    for (const name of secrets.leaked) violations.push({ kind: 'secret', detail: `the value of ${name} appeared in the output (redacted)` });
    if (scratch && overDisk) {
      violations.push({ kind: 'filesystem', detail: 'the files written were not copied back into the project: the disk limit was hit' });
    } else if (scratch) {
      for (const refused of await copyBack(scratch, projectDir)) violations.push({ kind: 'symlink', detail: `not copied back: ${refused}` });
    }
    // Last: nothing of the run is alive now, so what the check finds is what the run did.
    for (const change of await restoreProtected(snapshot, request.acceptRecordLine))
      violations.push({ kind: 'integrity', detail: change.endsWith(NOT_RESTORED) ? change : `${change} (restored)` });
    for (const change of (await Promise.all(guarded.map(restoreGitDir))).flat()) violations.push({ kind: 'integrity', detail: change });
    const limitNotes = describeLimitsHit(limitsHit, limits, result.timedOut, signal, secrets.output);
    // Outside bubblewrap, the scratch copy's and the temp folder's paths become those bubblewrap shows.
    const output = scratch && hostTmp ? sandboxView(secrets.output, await hostPlaces(scratch.dir, hostTmp)) : secrets.output;

    return {
      mode,
      limits,
      limitsHit: LIMIT_ORDER.filter((kind) => limitsHit.has(kind)),
      violations,
      gaps: [...gapsOf(mode, { cgroup: cgroup !== null, nproc: nproc !== null, ownNetwork: request.ownNetwork !== undefined }), ...unguarded(guarded)],
      ...(limitNotes.length > 0 ? { limitNotes } : {}),
      exitCode: result.exitCode,
      signal,
      timedOut: result.timedOut,
      output,
      truncated: result.truncated,
      notice,
    };
  } finally {
    await cgroup?.killAll();
    await cgroup?.remove();
    // What the code left in its temp folder goes with it (rm does not follow links out of it).
    if (hostTmp) await fsp.rm(hostTmp, { recursive: true, force: true }).catch(() => undefined);
    await scratch?.remove().catch(() => undefined);
  }
}

/** The scratch copy's and temp folder's paths, as made and as the system resolves them (a linked /tmp). */
async function hostPlaces(workDir: string, tmpDir: string): Promise<HostPlaces> {
  const real = (dir: string) => fsp.realpath(dir).catch(() => dir);
  return { workDirs: [...new Set([workDir, await real(workDir)])], tmpDirs: [...new Set([tmpDir, await real(tmpDir)])] };
}

/** Which limit ended the run, and the test that was running when the runner's output names one. */
function describeLimitsHit(hit: Set<LimitKind>, limits: SandboxLimits, timedOut: boolean, signal: string | null, output: string): string[] {
  const test = runningTest(output);
  const during = test.running ? ` while "${test.running}" was running` : test.lastFinished ? ` after "${test.lastFinished}", the last test that ended` : '';
  const notes: string[] = [];
  if (timedOut) notes.push(`time: the wall clock (${limits.wallSeconds} s) was up${during}; every process was killed`);
  if (hit.has('cpu'))
    notes.push(
      `cpu: a process used its ${limits.cpuSeconds} s of CPU time${signal === 'SIGXCPU' || signal === 'SIGKILL' ? ` and was killed (${signal})` : ''}${during}`,
    );
  if (hit.has('memory')) notes.push(`memory: a process ran out of its ${limits.memoryMb} MB${during}`);
  if (hit.has('disk'))
    notes.push(
      `disk: a file over ${diskLimits(limits).fileMb} MB, or more than ${diskLimits(limits).diskMb} MB or ${diskLimits(limits).maxFiles} files added${during}`,
    );
  return notes;
}

const LIMIT_ORDER: LimitKind[] = ['time', 'cpu', 'memory', 'processes', 'output', 'disk'];

/** Only what a test runner needs; nothing from sopworks' environment that could carry a secret. */
function sandboxEnvironment(mode: SandboxMode, runId: string, hostTmp: string | null, binDirs: string[]): Record<string, string> {
  const home = hostTmp ? path.join(hostTmp, 'home') : SANDBOX_HOME;
  const tmp = hostTmp ? path.join(hostTmp, 'tmp') : SANDBOX_TMP;
  if (hostTmp) {
    fs.mkdirSync(home);
    fs.mkdirSync(tmp);
  }
  const hostPath = process.env.PATH ?? '';
  const sandboxPath = [...binDirs, '/usr/local/bin', '/usr/bin', '/bin', '/usr/local/sbin', '/usr/sbin', '/sbin'].join(':');
  const env: Record<string, string> = {
    PATH: mode === 'bubblewrap' ? sandboxPath : hostPath,
    HOME: home,
    TMPDIR: tmp,
    LANG: process.env.LANG ?? 'C.UTF-8',
    NO_COLOR: '1',
    CI: 'true',
    // No registry tokens or CA files from the host's npm and pip configuration.
    npm_config_globalconfig: '/dev/null',
    npm_config_userconfig: path.join(home, '.npmrc'),
    npm_config_update_notifier: 'false',
    PIP_CONFIG_FILE: '/dev/null',
    PIP_DISABLE_PIP_VERSION_CHECK: '1',
    [RUN_MARKER]: runId,
  };
  for (const name of ['LC_ALL', 'TZ']) if (process.env[name]) env[name] = process.env[name]!;
  // Outside bubblewrap, pyenv's shims (on the host PATH) need to know where pyenv is.
  if (mode !== 'bubblewrap') for (const name of ['PYENV_ROOT', 'PYENV_VERSION']) if (process.env[name]) env[name] = process.env[name]!;
  return env;
}

/** bubblewrap exits with 128+N when the command was killed by signal N. */
function signalOfExitCode(exitCode: number | null): string | null {
  if (exitCode === null || exitCode <= 128 || exitCode > 128 + 64) return null;
  const entry = Object.entries(os.constants.signals).find(([, number]) => number === exitCode - 128);
  return entry ? entry[0] : null;
}

/** What the mode cannot stop on this machine, said plainly. */
function gapsOf(mode: SandboxMode, facts: { cgroup: boolean; nproc: boolean; ownNetwork: boolean }): string[] {
  const gaps: string[] = [];
  if (mode !== 'bubblewrap' && facts.ownNetwork) {
    gaps.push("network: a namespace of its own (unshare --net), but Unix sockets on the host's filesystem (a Redis's, Docker's) can still be reached");
  }
  if (mode === 'node-permissions') {
    if (!facts.ownNetwork) gaps.push("network: not blocked (Node's permission model does not cover it)");
    gaps.push(
      'reads: not limited; the code can read any file your user can (your HOME included)',
      'child processes: allowed (node --test needs them); one that is not Node, or Node started without NODE_OPTIONS, is not confined (a change it makes to .git/ or .sopworks/ is detected and undone, and stops the run)',
    );
  }
  if (mode === 'unsandboxed') {
    gaps.push(
      'filesystem: not isolated; the command can read and write whatever your user can (it runs in a scratch copy of the work tree, and changes to .git/ or .sopworks/ are detected and undone afterwards, not prevented)',
    );
    if (!facts.ownNetwork) gaps.push('network: not blocked');
  }
  if (mode !== 'bubblewrap')
    gaps.push("disk: the private temp folder is on the host's disk, bounded only by the file-size limit (under bubblewrap it is a bounded tmpfs)");
  if (!facts.cgroup && !facts.nproc) gaps.push('processes: not bounded (root is exempt from RLIMIT_NPROC and no pids cgroup could be made)');
  if (mode !== 'bubblewrap' && !facts.cgroup) gaps.push('leftover processes: one that leaves the process group and clears its environment is not found');
  return gaps;
}
