/**
 * Per-process limits set with prlimit (util-linux) before the command starts; inherited by every
 * child. CPU: SIGXCPU at the limit, SIGKILL one second later. Memory: RLIMIT_DATA (RLIMIT_AS would
 * count the address space V8 reserves, and Node would not start). No core files: a crash under a
 * limit must not drop a core dump into the project.
 */
import fs from 'node:fs/promises';
import { diskLimits, type SandboxLimits } from './limits.ts';

export function prlimitArgs(limits: SandboxLimits, nproc: number | null): string[] {
  const data = limits.memoryMb * 1024 * 1024;
  // One huge file: SIGXFSZ at the limit (a process that ignores it gets EFBIG).
  const fsize = diskLimits(limits).fileMb * 1024 * 1024;
  return [
    'prlimit',
    `--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + 1}`,
    `--data=${data}:${data}`,
    `--fsize=${fsize}:${fsize}`,
    '--core=0',
    ...(nproc === null ? [] : [`--nproc=${nproc}:${nproc}`]),
    '--',
  ];
}

/**
 * RLIMIT_NPROC counts every task (process or thread) of the user, not just the run's: the bound is
 * what the user runs now plus the run's allowance. Root is exempt from it (null: no bound from here).
 */
export async function nprocBound(maxProcesses: number): Promise<number | null> {
  const uid = process.getuid?.();
  if (uid === undefined || uid === 0) return null;
  let tasks = 0;
  for (const entry of await fs.readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry)) continue;
    const status = await fs.readFile(`/proc/${entry}/status`, 'utf8').catch(() => '');
    if (Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]) === uid) tasks += Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? 1);
  }
  return tasks + maxProcesses;
}
