/**
 * What a sandboxed run's command did, read once it has ended: the limits it hit, what it tried that
 * was refused or undone (violations), what the mode could not stop here (gaps), and its output with
 * secrets redacted and paths as bubblewrap shows them. Also copies the scratch work tree back and puts
 * the repository's metadata back, last, when nothing of the run is alive any more — unless the folder
 * stopped being this run's meanwhile (a queued run's lease lost: ground/files/write-fence.ts), when it
 * writes nothing there and throws WRITE_FENCED.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import { assertMayWrite } from '../../ground/files/index.ts';
import { SANDBOX_PROJECT } from './bubblewrap.ts';
import { restoreGitDir } from './git-dir-guard.ts';
import { restoreProtected } from './integrity.ts';
import { diskLimits, type SandboxLimits } from './limits.ts';
import { type HostPlaces, sandboxView } from './machine-paths.ts';
import { describeLeftovers, takeLeftoverLines } from './outlived.ts';
import { limitsInOutput, violationsInOutput } from './read-evidence.ts';
import type { ProcessResult } from './run-process.ts';
import { runningTest } from './running-test.ts';
import type { LimitKind, SandboxMode, Violation } from './sandbox-report.ts';
import type { SandboxOutcome, SandboxSetup } from './sandbox-request.ts';
import { copyBack, measureTree } from './scratch-copy.ts';
import { redactSecrets, secretsOf } from './secrets.ts';
import { linksOutside } from './symlinks-outside.ts';

/** How the command ended, and the commands of its processes that outlived it (found from outside). */
export interface Ran {
  result: ProcessResult;
  leftovers: string[];
}

/** Output that is the command's own (the leftover reporter's lines taken out), secrets redacted. */
interface Read {
  signal: string | null;
  output: string;
  leakedSecrets: string[];
  reportedLeftovers: string[];
}

export async function readFindings(setup: SandboxSetup, ran: Ran): Promise<SandboxOutcome> {
  const { mode, request, scratch, hostTmp, cgroup } = setup;
  const { result } = ran;
  const signal = result.signal ?? (mode === 'bubblewrap' ? signalOfExitCode(result.exitCode) : null);
  const reported = takeLeftoverLines(result.output, setup.runId);
  const secrets = redactSecrets(reported.output, secretsOf(process.env));
  const read: Read = { signal, output: secrets.output, leakedSecrets: secrets.leaked, reportedLeftovers: reported.commands };
  const { hit: limitsHit, disk } = await limitsHitBy(setup, result, read);
  const violations = await violationsOf(setup, ran, read, disk);
  const limitNotes = describeLimitsHit(limitsHit, request.limits, { timedOut: result.timedOut, signal, output: read.output, unmeasured: disk.unmeasured });
  // Outside bubblewrap, the scratch copy's and the temp folder's paths become those bubblewrap shows.
  const output = scratch && hostTmp ? sandboxView(read.output, await hostPlaces(scratch.dir, hostTmp)) : read.output;
  const facts = { cgroup: cgroup !== null, nproc: setup.nproc !== null, ownNetwork: request.ownNetwork !== undefined };
  return {
    mode,
    limits: request.limits,
    limitsHit: LIMIT_ORDER.filter((kind) => limitsHit.has(kind)),
    violations,
    gaps: gapsOf(mode, facts),
    ...(limitNotes.length > 0 ? { limitNotes } : {}),
    exitCode: result.exitCode,
    signal,
    timedOut: result.timedOut,
    output,
    truncated: result.truncated,
    notice: setup.notice,
  };
}

/** Whether the work tree grew over the disk limit; one that could not be measured in full counts as over. */
interface DiskFinding {
  over: boolean;
  /** Folders of the work tree that could not be listed after the run. */
  unmeasured: string[];
}

async function limitsHitBy(setup: SandboxSetup, result: ProcessResult, read: Read): Promise<{ hit: Set<LimitKind>; disk: DiskFinding }> {
  const disk = diskLimits(setup.request.limits);
  const hit = new Set<LimitKind>(limitsInOutput(read.output));
  if (result.timedOut) hit.add('time');
  if (read.signal === 'SIGXCPU') hit.add('cpu');
  if (read.signal === 'SIGXFSZ') hit.add('disk');
  // Many small files, or space: measured after the run (the sandbox's /tmp is a bounded tmpfs).
  const { sizeBefore } = setup;
  const sizeAfter = await measureTree(setup.workDir, sizeBefore.files + disk.maxFiles);
  const over =
    sizeAfter.unlisted.length > 0 || sizeAfter.files - sizeBefore.files > disk.maxFiles || sizeAfter.bytes - sizeBefore.bytes > disk.diskMb * 1024 * 1024;
  if (over) hit.add('disk');
  if (await setup.cgroup?.limitHit()) hit.add('processes');
  if (result.truncated) hit.add('output');
  return { hit, disk: { over, unmeasured: sizeAfter.unlisted } };
}

async function violationsOf(setup: SandboxSetup, ran: Ran, read: Read, disk: DiskFinding): Promise<Violation[]> {
  const { mode, workDir, scratch } = setup;
  const violations: Violation[] = violationsInOutput(read.output, {
    mode,
    projectDir: workDir,
    sandboxProjectDir: mode === 'bubblewrap' ? SANDBOX_PROJECT : workDir,
    tmpDir: setup.hostTmp,
    existsOnHost: (file) => fs.existsSync(file),
  });
  for (const detail of describeLeftovers([read.reportedLeftovers, ran.leftovers])) violations.push({ kind: 'outlived', detail });
  violations.push(...(await linkViolations(workDir)));
  for (const name of read.leakedSecrets) violations.push({ kind: 'secret', detail: `the value of ${name} appeared in the output (redacted)` });
  if (scratch && disk.over) {
    const why =
      disk.unmeasured.length > 0 ? `the work tree could not be measured in full (${disk.unmeasured.join(', ')} could not be listed)` : 'the disk limit was hit';
    violations.push({ kind: 'filesystem', detail: `the files written were not copied back into the project: ${why}` });
  } else if (scratch) {
    assertMayWrite(setup.projectDir);
    for (const refused of await copyBack(scratch, setup.projectDir)) violations.push({ kind: 'symlink', detail: `not copied back: ${refused}` });
  }
  // Last: nothing of the run is alive now, so what the check finds is what the run did. Whatever changed
  // since is another worker's once the lease is lost: its packs, index and board are never "put back".
  assertMayWrite(setup.projectDir);
  for (const change of await restoreProtected(setup.snapshot, setup.request.acceptRecordLine)) violations.push({ kind: 'integrity', detail: change });
  for (const change of (await Promise.all(setup.guarded.map(restoreGitDir))).flat()) violations.push({ kind: 'integrity', detail: change });
  // Lost part-way: what was found is not this run's to report (and what was left alone, not its to undo).
  assertMayWrite(setup.projectDir);
  return violations;
}

/** Links the run left that point outside the project: the first ones named, the rest counted, folders not seen said. */
async function linkViolations(workDir: string): Promise<Violation[]> {
  const found = await linksOutside(workDir);
  const violations: Violation[] = found.links.map((link) => ({
    kind: 'symlink',
    detail: `${link.link} -> ${link.target.split(workDir).join('<project>')} points outside the project (sopworks will not write through it)`,
  }));
  if (found.count > found.links.length) {
    violations.push({
      kind: 'symlink',
      detail: `and ${found.count - found.links.length} more links that point outside the project (sopworks will not write through them)`,
    });
  }
  for (const folder of found.unlisted) {
    violations.push({
      kind: 'symlink',
      detail: `links were not looked for in ${folder}: the folder could not be listed (sopworks will not write through a link there either)`,
    });
  }
  return violations;
}

/** The scratch copy's and temp folder's paths, as made and as the system resolves them (a linked /tmp). */
async function hostPlaces(workDir: string, tmpDir: string): Promise<HostPlaces> {
  const real = (dir: string) => fsp.realpath(dir).catch(() => dir);
  return { workDirs: [...new Set([workDir, await real(workDir)])], tmpDirs: [...new Set([tmpDir, await real(tmpDir)])] };
}

/** Which limit ended the run, and the test that was running when the runner's output names one. */
function describeLimitsHit(
  hit: Set<LimitKind>,
  limits: SandboxLimits,
  run: { timedOut: boolean; signal: string | null; output: string; unmeasured: string[] },
): string[] {
  const { timedOut, signal, output } = run;
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
      run.unmeasured.length > 0
        ? `disk: the work tree could not be measured in full (${run.unmeasured.join(', ')} could not be listed): counted as over the limit`
        : `disk: a file over ${diskLimits(limits).fileMb} MB, or more than ${diskLimits(limits).diskMb} MB or ${diskLimits(limits).maxFiles} files added${during}`,
    );
  return notes;
}

const LIMIT_ORDER: LimitKind[] = ['time', 'cpu', 'memory', 'processes', 'output', 'disk'];

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
