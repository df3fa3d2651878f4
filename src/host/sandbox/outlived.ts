/**
 * Finds and kills processes of a run that are still alive after it ended. Every process of a run
 * carries an environment variable naming the run; a detached grandchild that called setsid() left the
 * process group, but it still carries the variable — unless it cleared its environment, which only a
 * pids cgroup or a PID namespace can catch (a gap of the fallback where neither exists).
 */
import fs from 'node:fs/promises';

export const RUN_MARKER = 'SOPWORKS_SANDBOX_RUN';

export interface Outlived {
  pid: number;
  command: string;
}

/** Kills every process that carries the run's marker; returns what they were. */
export async function killOutlived(runId: string): Promise<Outlived[]> {
  const needle = Buffer.from(`${RUN_MARKER}=${runId}\0`);
  const found: Outlived[] = [];
  const entries = await fs.readdir('/proc').catch(() => [] as string[]);
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    const environ = await fs.readFile(`/proc/${pid}/environ`).catch(() => null);
    if (!environ || !environ.includes(needle)) continue;
    const killed = await killProcess(pid);
    if (killed) found.push(killed);
  }
  return found;
}

/** Kills one process; returns its command line, or null when it had ended (a zombie has no command line). */
export async function killProcess(pid: number): Promise<Outlived | null> {
  const cmdline = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    return null;
  }
  const command = cmdline.split('\0').filter(Boolean).join(' ').slice(0, 200);
  return command ? { pid, command } : null;
}

/**
 * Lines the in-sandbox reporter printed for processes still running when the command ended
 * ("<run id> outlived: <command>"): the commands, and the output without those lines.
 */
export function takeLeftoverLines(output: string, runId: string): { output: string; commands: string[] } {
  const commands: string[] = [];
  const prefix = `${runId} outlived: `;
  const kept = output.split('\n').filter((line) => {
    if (!line.startsWith(prefix)) return true;
    commands.push(line.slice(prefix.length).trim());
    return false;
  });
  return { output: kept.join('\n'), commands };
}

/**
 * One violation per distinct command, with a count: a fork bomb's leftovers read as one line. Each
 * source (the reporter inside bubblewrap, the host's scan) may see the same process: per command,
 * the count is the most any one source saw.
 */
export function describeLeftovers(sources: readonly (readonly string[])[]): string[] {
  const counts = new Map<string, number>();
  for (const commands of sources) {
    const seen = new Map<string, number>();
    for (const command of commands) seen.set(command, (seen.get(command) ?? 0) + 1);
    for (const [command, count] of seen) counts.set(command, Math.max(counts.get(command) ?? 0, count));
  }
  return [...counts].map(([command, count]) => `still running after the run, killed: ${command}${count > 1 ? ` (${count} processes)` : ''}`);
}
