/**
 * The bounds every sandboxed run gets. Each is a named value with a documented default; the CLI reads
 * them from the settings (.env.example), a SOP step may shorten the wall clock.
 */
import { z } from 'zod';

export const SandboxLimits = z.object({
  /** Wall-clock time of the whole run; the process tree is killed when it is up. */
  wallSeconds: z.number().int().min(1),
  /** CPU time per process (RLIMIT_CPU): SIGXCPU at the limit, SIGKILL a second later. */
  cpuSeconds: z.number().int().min(1),
  /** Memory per process (RLIMIT_DATA: heap and private mappings; RLIMIT_AS breaks Node). */
  memoryMb: z.number().int().min(16),
  /** Processes and threads of the run together (a pids cgroup; RLIMIT_NPROC where that binds). */
  maxProcesses: z.number().int().min(8),
  /** Output kept: the tail of stdout and stderr interleaved. */
  outputKb: z.number().int().min(1),
  /** Largest file a process may write (RLIMIT_FSIZE: SIGXFSZ, then EFBIG); absent: DISK_DEFAULTS. */
  fileMb: z.number().int().min(1).optional(),
  /** Space the run may add to the project, and the private /tmp and HOME (tmpfs size under bubblewrap). */
  diskMb: z.number().int().min(1).optional(),
  /** Files the run may add to the project. */
  maxFiles: z.number().int().min(1).optional(),
});
export type SandboxLimits = z.infer<typeof SandboxLimits>;

export const DEFAULT_LIMITS: SandboxLimits = {
  wallSeconds: 120,
  cpuSeconds: 60,
  memoryMb: 1024,
  maxProcesses: 512,
  // The output is read for the names of the tests that ran: a suite of thousands of tests prints more than
  // 256 KB (commander.js's 1,391 under node --test), and a criterion's test printed in a dropped head went unread.
  outputKb: 2048,
};

/**
 * The disk bounds when the limits do not name them. Kept out of DEFAULT_LIMITS so that a report's
 * limits (and the page committed from it) read as before for runs that did not set them.
 */
export const DISK_DEFAULTS = { fileMb: 256, diskMb: 512, maxFiles: 20_000 } as const;

export const diskLimits = (limits: SandboxLimits) => ({
  fileMb: limits.fileMb ?? DISK_DEFAULTS.fileMb,
  diskMb: limits.diskMb ?? DISK_DEFAULTS.diskMb,
  maxFiles: limits.maxFiles ?? DISK_DEFAULTS.maxFiles,
});

/** One line a user can read: "wall 120 s, CPU 60 s per process, memory 1024 MB per process, …". */
export function describeLimits(limits: SandboxLimits): string {
  return (
    `wall ${limits.wallSeconds} s, CPU ${limits.cpuSeconds} s per process, memory ${limits.memoryMb} MB per process, ` +
    `${limits.maxProcesses} processes, output ${limits.outputKb} KB` +
    (limits.fileMb !== undefined ? `, files up to ${limits.fileMb} MB` : '') +
    (limits.diskMb !== undefined ? `, ${limits.diskMb} MB added` : '') +
    (limits.maxFiles !== undefined ? `, ${limits.maxFiles} files added` : '')
  );
}
