/**
 * Tells when recorded state changes on disk: a run's board, exchanges, run.json, lock, role states and
 * git history — or, for a folder of runs, which runs there are and how far each has got.
 * File-system events (fs.watch) wake a watcher; a slow poll covers file systems that drop them.
 * Either way it compares a signature of the files (sizes and times), so a listener hears of each
 * change once, and of nothing that did not change.
 */
import fs from 'node:fs';
import path from 'node:path';
import { lockOwnerNow } from '../../../engine/run/index.ts';
import { runFiles } from '../read-run.ts';
import type { RunCatalog } from './run-catalog.ts';

export interface Watcher {
  close(): void;
}

export interface WatchTimings {
  /** How long to let a burst of writes settle before looking. */
  settleMs?: number;
  /** The poll interval: a safety net for dropped file events, and how soon a killed run is seen as stopped. */
  pollMs?: number;
}

interface WatchSpec extends WatchTimings {
  /** Folders whose events wake the watcher; those that do not exist yet are tried again on each look. */
  folders: () => string[];
  signature: () => Promise<string>;
  onChange: () => void;
}

const stamp = (file: string): string => {
  try {
    const stat = fs.statSync(file);
    return `${stat.size}:${stat.mtimeMs}`;
  } catch {
    return '-';
  }
};

/**
 * Who works on the run, by its lock: a killed run leaves its lock behind unchanged, so only asking
 * whether the lock's owner lives tells a page that the run stopped.
 */
const lockHolder = (stateDir: string): string => {
  const owner = lockOwnerNow(stateDir);
  return owner === null ? 'nobody' : `alive:${owner}`;
};

/** Sizes and times of the files that change as a run goes on, and whether its lock's owner lives. */
export function runSignature(dir: string): string {
  const files = runFiles(dir);
  const watched = [files.board, files.exchanges, files.info, files.lock, path.join(files.state, 'approvals.json'), path.join(dir, '.git', 'logs', 'HEAD')];
  let roleFiles: string[] = [];
  try {
    roleFiles = fs
      .readdirSync(files.roles)
      .filter((n) => n.endsWith('.json'))
      .sort()
      .map((n) => path.join(files.roles, n));
  } catch {
    // No role states recorded (yet).
  }
  return [...[...watched, ...roleFiles].map(stamp), lockHolder(files.state)].join('|');
}

const runFolders = (dir: string): string[] => {
  const files = runFiles(dir);
  return [files.state, files.roles, path.join(dir, '.git'), path.join(dir, '.git', 'logs')];
};

function watchChanges(spec: WatchSpec): Watcher {
  const watchers = new Map<string, fs.FSWatcher>();
  let last: string | null = null;
  let timer: NodeJS.Timeout | null = null;
  let looking = false;
  let closed = false;

  const attach = () => {
    for (const folder of spec.folders()) {
      if (watchers.has(folder)) continue;
      try {
        const watcher = fs.watch(folder, wake);
        watcher.on('error', () => {
          watcher.close();
          watchers.delete(folder);
        });
        watchers.set(folder, watcher);
      } catch {
        // Not there yet: a later look tries again.
      }
    }
  };
  const look = async () => {
    timer = null;
    if (closed || looking) return;
    looking = true;
    try {
      attach();
      const now = await spec.signature();
      if (!closed && last !== null && now !== last) spec.onChange();
      last = now;
    } finally {
      looking = false;
    }
  };
  function wake() {
    if (!closed && timer === null) timer = setTimeout(() => void look(), spec.settleMs ?? 100);
  }
  void look();
  const poll = setInterval(wake, spec.pollMs ?? 1000);
  poll.unref();

  return {
    close() {
      closed = true;
      clearInterval(poll);
      if (timer) clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}

export function watchRun(dir: string, onChange: () => void, timings: WatchTimings = {}): Watcher {
  return watchChanges({ ...timings, folders: () => runFolders(dir), signature: async () => runSignature(dir), onChange });
}

/** Runs appearing, disappearing or moving on in a catalog's folder. */
export function watchCatalog(catalog: RunCatalog, onChange: () => void, timings: WatchTimings = {}): Watcher {
  let known: { name: string; dir: string }[] = [];
  return watchChanges({
    ...timings,
    folders: () => [catalog.root, ...known.flatMap((run) => runFolders(run.dir))],
    signature: async () => {
      known = await catalog.runs();
      return known.map((run) => `${run.name}=${runSignature(run.dir)}`).join('\n');
    },
    onChange,
  });
}
