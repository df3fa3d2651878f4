/**
 * How much of the machine's CPU time the hypervisor took for other guests ("steal" in /proc/stat)
 * while a run went on. On a shared virtual machine a run's overhead per call can double when the host
 * is busy; a row that says how much was stolen can be read for what it is. Linux only: elsewhere the
 * share is null.
 */
import fs from 'node:fs';

interface CpuTimes {
  steal: number;
  total: number;
}

/** The aggregate `cpu` line of /proc/stat: user nice system idle iowait irq softirq steal … (in ticks). */
export function parseProcStat(text: string): CpuTimes | null {
  const line = text.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) return null;
  const ticks = line.trim().split(/\s+/).slice(1).map(Number);
  if (ticks.length < 8 || ticks.some((t) => !Number.isFinite(t))) return null;
  // guest and guest_nice (9th, 10th) are already counted in user and nice.
  return { steal: ticks[7]!, total: ticks.slice(0, 8).reduce((sum, t) => sum + t, 0) };
}

const readCpuTimes = (): CpuTimes | null => {
  try {
    return parseProcStat(fs.readFileSync('/proc/stat', 'utf8'));
  } catch {
    return null;
  }
};

/** Starts watching; the returned function gives the percentage of CPU time stolen since, or null. */
export function watchSteal(): () => number | null {
  const before = readCpuTimes();
  return () => {
    const after = readCpuTimes();
    if (!before || !after || after.total <= before.total) return null;
    return Math.round(((after.steal - before.steal) / (after.total - before.total)) * 1000) / 10;
  };
}
