/**
 * Fault injection for the kill test: with SOPWORKS_CRASH_AT="<point>:<n>", the process SIGKILLs itself
 * the n-th time it reaches the named point — mid-commit or mid-log-write, places a timed kill cannot
 * hit reliably. Unset, it does nothing.
 */
const counts = new Map<string, number>();

export type CrashPointName = 'board.append' | 'git.commit';

export function crashPoint(name: CrashPointName): void {
  const spec = process.env.SOPWORKS_CRASH_AT;
  if (!spec) return;
  const [point, nth] = spec.split(':');
  if (point !== name) return;
  const count = (counts.get(name) ?? 0) + 1;
  counts.set(name, count);
  if (count === Number(nth)) process.kill(process.pid, 'SIGKILL');
}
