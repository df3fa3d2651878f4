/**
 * A pids cgroup for one run: the only bound on a fork bomb that holds for root (the kernel does not
 * apply RLIMIT_NPROC to root), and the one list of every process of the run — including a detached
 * grandchild that left the process group — so all of them can be killed at the end.
 * Used where this process may create one (root on a host with a writable cgroup hierarchy);
 * elsewhere `createPidsCgroup` returns null and the run says what that leaves unbounded.
 */
import fs from 'node:fs/promises';
import path from 'node:path';

export interface PidsCgroup {
  /** Where a process writes its pid to join (the sandbox's wrapper does, before it execs the command). */
  procsFile: string;
  /** The pids of the processes in it now. */
  members(): Promise<number[]>;
  /** True when a fork was refused because the run hit its process limit. */
  limitHit(): Promise<boolean>;
  /** Kills every process in the cgroup; returns how many there were. */
  killAll(): Promise<number>;
  remove(): Promise<void>;
}

let counter = 0;

export async function createPidsCgroup(maxProcesses: number): Promise<PidsCgroup | null> {
  const mounts = await fs.readFile('/proc/self/mountinfo', 'utf8').catch(() => '');
  const membership = await fs.readFile('/proc/self/cgroup', 'utf8').catch(() => '');
  const name = `sopworks-${process.pid}-${++counter}`;
  return (await createV2(mounts, membership, name, maxProcesses)) ?? (await createV1(mounts, membership, name, maxProcesses));
}

/** cgroup v2: a child of this process's own cgroup, where the pids controller can be enabled. */
async function createV2(mounts: string, membership: string, name: string, max: number): Promise<PidsCgroup | null> {
  const mount = mountPoints(mounts).find((m) => m.fstype === 'cgroup2');
  const own = /^0::(\/.*)$/m.exec(membership)?.[1];
  if (!mount || own === undefined) return null;
  const parent = path.join(mount.point, own);
  try {
    const controllers = await fs.readFile(path.join(parent, 'cgroup.controllers'), 'utf8');
    if (!controllers.split(/\s+/).includes('pids')) return null;
    const enabled = await fs.readFile(path.join(parent, 'cgroup.subtree_control'), 'utf8');
    if (!enabled.split(/\s+/).includes('pids')) await fs.writeFile(path.join(parent, 'cgroup.subtree_control'), '+pids');
    const dir = path.join(parent, name);
    await fs.mkdir(dir);
    try {
      await fs.writeFile(path.join(dir, 'pids.max'), String(max));
    } catch (error) {
      await fs.rmdir(dir).catch(() => undefined);
      throw error;
    }
    return handle(dir, async () => {
      // cgroup.kill (Linux 5.14+) kills every member at once, forks in flight included.
      if (
        await fs.writeFile(path.join(dir, 'cgroup.kill'), '1').then(
          () => true,
          () => false,
        )
      )
        return;
      await killMembers(dir);
    });
  } catch {
    return null;
  }
}

/** cgroup v1: a child of this process's cgroup in the pids hierarchy. */
async function createV1(mounts: string, membership: string, name: string, max: number): Promise<PidsCgroup | null> {
  const mount = mountPoints(mounts).find((m) => m.fstype === 'cgroup' && m.superOptions.split(',').includes('pids'));
  const own = /^\d+:pids:(\/.*)$/m.exec(membership)?.[1];
  if (!mount || own === undefined) return null;
  const dir = path.join(mount.point, own, name);
  try {
    await fs.mkdir(dir);
    await fs.writeFile(path.join(dir, 'pids.max'), String(max));
  } catch {
    await fs.rmdir(dir).catch(() => undefined);
    return null;
  }
  return handle(dir, () => killMembers(dir));
}

function handle(dir: string, kill: () => Promise<void>): PidsCgroup {
  return {
    procsFile: path.join(dir, 'cgroup.procs'),
    members: () => members(dir),
    limitHit: async () => {
      const events = await fs.readFile(path.join(dir, 'pids.events'), 'utf8').catch(() => '');
      return Number(/^max (\d+)$/m.exec(events)?.[1] ?? 0) > 0;
    },
    killAll: async () => {
      const before = (await members(dir)).length;
      if (before > 0) await kill();
      return before;
    },
    remove: async () => {
      // rmdir fails while a killed process is still being reaped: retry briefly.
      for (let attempt = 0; attempt < 50; attempt++) {
        try {
          await fs.rmdir(dir);
          return;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
          await killMembers(dir);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    },
  };
}

/** Kills members until none is left: no new ones can appear, forks are refused once pids.max is 0. */
async function killMembers(dir: string): Promise<void> {
  await fs.writeFile(path.join(dir, 'pids.max'), '0').catch(() => undefined);
  for (let round = 0; round < 100; round++) {
    const pids = await members(dir);
    if (pids.length === 0) return;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function members(dir: string): Promise<number[]> {
  const text = await fs.readFile(path.join(dir, 'cgroup.procs'), 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean).map(Number);
}

function mountPoints(mountinfo: string): { point: string; fstype: string; superOptions: string }[] {
  return mountinfo
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      // "id parent major:minor root point options [optional…] - fstype source superOptions"
      const [before, after = ''] = line.split(' - ');
      const fields = before!.split(' ');
      const [fstype = '', , superOptions = ''] = after.split(' ');
      return { point: unescapeMount(fields[4] ?? ''), fstype, superOptions };
    });
}

const unescapeMount = (value: string): string => value.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
