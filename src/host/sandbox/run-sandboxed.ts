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
 *
 * A queued run's folder is written only while its worker holds the run's lease (write-fence.ts): a run
 * that lost it starts no command there, the command under way is killed when it is lost, and nothing
 * is copied back or put back afterwards (sandbox-findings.ts) — the folder is another worker's.
 *
 * Here: the run is set up and cleaned up; its command line is built in sandbox-command-line.ts, and
 * what it did is read in sandbox-findings.ts.
 */
import { randomUUID } from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SopworksError } from '../../ground/errors.ts';
import { assertMayWrite, fenceLost } from '../../ground/files/index.ts';
import { type Availability, bubblewrapAvailability } from './bubblewrap.ts';
import { chooseMode } from './choose-mode.ts';
import { findCommand } from './find-command.ts';
import { gitDirsToGuard, snapshotGitDir } from './git-dir-guard.ts';
import { snapshotProtected } from './integrity.ts';
import { killOutlived, killProcess } from './outlived.ts';
import { inside } from './path-inside.ts';
import { createPidsCgroup } from './pids-cgroup.ts';
import { nodePermissionAvailability } from './probe-node-permissions.ts';
import { removeTree } from './remove-tree.ts';
import { nprocBound } from './rlimits.ts';
import { runProcess } from './run-process.ts';
import { buildCommandLine, CGROUP_JOIN_FAILED, type CommandLine } from './sandbox-command-line.ts';
import { type Ran, readFindings } from './sandbox-findings.ts';
import type { SandboxOutcome, SandboxRequest, SandboxSetup } from './sandbox-request.ts';
import { makeScratch, measureTree, type Scratch } from './scratch-copy.ts';

export type { SandboxOutcome, SandboxRequest } from './sandbox-request.ts';

export async function runSandboxed(request: SandboxRequest): Promise<SandboxOutcome> {
  const projectDir = await fsp.realpath(request.projectDir).catch(() => {
    throw new SopworksError('TEST_RUN_FAILED', `The project folder ${request.projectDir} does not exist.`, { hint: 'Pass the folder of a generated project.' });
  });
  assertMayWrite(projectDir);
  return runInSandbox(request, projectDir, await gitDirsToGuard(projectDir));
}

/** Sets the run up (mode, snapshots, bounds, places), builds its command line, runs it, reads its findings, and cleans up whatever happens. */
async function runInSandbox(request: SandboxRequest, projectDir: string, gitDirs: string[]): Promise<SandboxOutcome> {
  const found = await findCommand(request.argv, { cwd: projectDir, env: process.env });
  const rootInProject = (request.programRoots ?? []).some((root) => !path.isAbsolute(root) || inside(root, projectDir) || inside(projectDir, root));
  if (request.installer && (!path.isAbsolute(request.argv[0]!) || inside(found.program, projectDir) || rootInProject)) {
    throw new SopworksError(
      'TEST_RUN_FAILED',
      `Refused to run "${request.argv[0]}" as the installer: it must be a program of this machine, outside the project.`,
      {
        hint: "Report this: the install resolves npm and python3 on sopworks' own PATH before the sandbox starts.",
      },
    );
  }
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

  const snapshot = await snapshotProtected(projectDir);
  const guarded = await Promise.all(gitDirs.map((dir) => snapshotGitDir(dir)));
  const sizeBefore = await measureTree(projectDir, Number.MAX_SAFE_INTEGER);
  const hostTmp = mode === 'bubblewrap' ? null : await fsp.mkdtemp(path.join(os.tmpdir(), 'sopworks-sandbox-'));
  let scratch: Scratch | null = null;
  const cgroup = await createPidsCgroup(request.limits.maxProcesses);
  const nproc = await nprocBound(request.limits.maxProcesses);
  try {
    // Outside bubblewrap nothing else keeps the code off .git/ and .sopworks/: it gets a copy without them.
    if (mode !== 'bubblewrap') scratch = await scratchCopy(request, projectDir);
    const workDir = scratch?.dir ?? projectDir;
    const runId = randomUUID();
    const setup: SandboxSetup = {
      request,
      mode,
      notice,
      found,
      projectDir,
      workDir,
      scratch,
      hostTmp,
      runId,
      cgroup,
      nproc,
      gitDirs,
      snapshot,
      guarded,
      sizeBefore,
    };
    const line = await buildCommandLine(setup);
    return { ...(await readFindings(setup, await runCommandLine(setup, line))), environment: line.environment };
  } finally {
    await cgroup?.killAll();
    await cgroup?.remove();
    // What the code left in its temp folder goes with it (rm does not follow links out of it).
    if (hostTmp) await removeTree(hostTmp).catch(() => undefined);
    await scratch?.remove().catch(() => undefined);
  }
}

function scratchCopy(request: SandboxRequest, projectDir: string): Promise<Scratch> {
  return makeScratch(projectDir).catch((error: unknown) => {
    throw new SopworksError(
      'TEST_RUN_FAILED',
      `Could not copy the work tree of ${projectDir} to run "${request.argv.join(' ')}" outside bubblewrap: ${(error as Error).message}`,
      { hint: 'Remove what cannot be copied (a socket, a pipe), or install bubblewrap, which needs no copy.' },
    );
  });
}

/** Runs the command line, bounded in time and output; once it exits, finds and kills what outlived it. */
async function runCommandLine(setup: SandboxSetup, line: CommandLine): Promise<Ran> {
  const { request, mode, cgroup, runId } = setup;
  /** Commands of the processes still running when the command ended. */
  const leftovers: string[] = [];
  let result: Ran['result'];
  try {
    result = await runProcess(line.argv, {
      cwd: setup.workDir,
      env: line.env,
      timeoutMs: request.limits.wallSeconds * 1000,
      maxOutputBytes: request.limits.outputKb * 1024,
      onTimeout: async () => cgroup?.killAll(),
      stop: fenceLost(setup.projectDir),
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
  if (result.exitCode === 125 && result.output.includes(CGROUP_JOIN_FAILED)) {
    throw new SopworksError('TEST_RUN_FAILED', `Could not start "${request.argv.join(' ')}" in the sandbox: ${result.output.trim()}`, {
      hint: 'The pids cgroup this process made is not writable after all; report this with the output of `cat /proc/self/cgroup`.',
    });
  }
  return { result, leftovers };
}
