/**
 * One process per project: `.sopworks/lock` says who works on the run — a pid and where that pid means
 * something (ground/pid-scope.ts), and, for a queued run, the lease its worker holds in Redis.
 *
 * - A lock of this host and PID namespace whose process is gone (a crash, kill -9) is stale: taken over;
 *   one this process holds (two runs of one project in one worker, say) is not, though the pid is its own.
 * - A lock of another machine (or container, or PID namespace) cannot be checked from here: the project is
 *   busy, and the message says where the lock came from.
 * - A queued run is owned through a lease (src/apps/queue/run-lease.ts) that its worker hands to the run
 *   (the session's hooks) and the run to its lock. Whoever holds the lease may take over a lock written
 *   under an earlier lease — that lease has expired, so its holder is gone or has stopped — once the
 *   earlier holder has released it or the grace for finishing its last writes has passed. The lease's
 *   loss stops the run at once (`lost`); its writes are fenced by its worker (ground/files/write-fence.ts).
 */
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { SopworksError } from '../../ground/errors.ts';
import { pidScope } from '../../ground/pid-scope.ts';
import type { RunLease, RunLock } from './run-store.ts';

const LockFile = z.object({
  pid: z.number().int().positive(),
  scope: z.string(),
  /** The token of the lease the lock was taken under, or null for a run started by hand. */
  lease: z.string().nullable(),
  owner: z.string(),
});
type LockFile = z.infer<typeof LockFile>;

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** A lock file's text, or null when it holds none; a bare pid (the format before leases) is a lock of this scope. */
function parseLock(text: string | null): LockFile | null {
  const trimmed = text?.trim();
  if (trimmed === undefined || trimmed === '') return null;
  if (/^\d+$/.test(trimmed)) return { pid: Number(trimmed), scope: pidScope(), lease: null, owner: `process ${trimmed}` };
  try {
    return LockFile.parse(JSON.parse(trimmed));
  } catch {
    return null;
  }
}

const readLock = async (file: string): Promise<LockFile | null> => parseLock(await fs.readFile(file, 'utf8').catch(() => null));

/** The lock files this process holds: its own pid in one of them is not a stale lock. */
const heldHere = new Set<string>();

/** Whether the lock's holder may still be at work: alive here, or beyond what this process can check. */
const mayBeAlive = (lock: LockFile): boolean => lock.scope !== pidScope() || (lock.pid !== process.pid && isAlive(lock.pid));

/**
 * The pid of the process working on a run (from its lock) while it may be at work, or null when none is.
 * Synchronous, for a file watcher's signature: a killed run leaves its lock unchanged, so only asking
 * whether its owner lives tells a watcher that the run stopped.
 */
export function lockOwnerNow(stateDir: string): number | null {
  const file = path.join(stateDir, 'lock');
  let text: string | null = null;
  try {
    text = fsSync.readFileSync(file, 'utf8');
  } catch {
    // No lock: nobody is at work on the run.
  }
  const lock = parseLock(text);
  // This process's own pid is at work only on a lock it holds (eval and the workbench run in-process).
  if (lock && lock.scope === pidScope() && lock.pid === process.pid) return heldHere.has(path.resolve(file)) ? lock.pid : null;
  return lock && mayBeAlive(lock) ? lock.pid : null;
}

/** The pid of the process working on a run (from its lock) while it may be at work, or null when none is. */
export const lockOwner = async (stateDir: string): Promise<number | null> => lockOwnerNow(stateDir);

/** `lease`: the lease a queued run is worked on under, null for a run started by hand. */
export async function acquireRunLock(stateDir: string, lease: RunLease | null = null): Promise<RunLock> {
  const file = path.join(stateDir, 'lock');
  if (heldHere.has(path.resolve(file))) {
    throw new SopworksError('PROJECT_BUSY', `${path.dirname(stateDir)} is in use by another run of this process (pid ${process.pid}).`, {
      hint: 'Wait for it to finish, or stop it (Ctrl-C) and then `sopworks resume` this project.',
    });
  }
  const mine: LockFile = { pid: process.pid, scope: pidScope(), lease: lease?.token ?? null, owner: lease?.owner ?? `process ${process.pid}` };
  let tookOver: string | null = null;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await fs.open(file, 'wx');
      heldHere.add(path.resolve(file));
      await handle.writeFile(`${JSON.stringify(mine)}\n`);
      await handle.close();
      return { tookOver, lost: lease?.lost ?? new AbortController().signal, release: () => release(file, mine) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const held = await readSettledLock(file);
      if (held) {
        const earlierLease = lease !== null && held.lease !== null && held.lease !== lease.token;
        if (earlierLease && mayBeAlive(held)) await waitForRelease(file, held, lease.graceMs);
        else if (!earlierLease && mayBeAlive(held)) throw busy(stateDir, held);
      }
      // Only the lock just read is removed: a newer one taken meanwhile is read again on the next attempt.
      if (sameLock(await readLock(file), held)) {
        if (held) tookOver = held.lease === null ? `process ${held.pid}, which is no longer running` : `${held.owner}, whose lease on the run ended`;
        await fs.rm(file, { force: true });
      }
    }
  }
  throw new SopworksError('PROJECT_BUSY', `Could not take the lock ${file}: another process keeps taking it.`);
}

/** A lock file caught between its creation and its content is read again before it counts as stale. */
async function readSettledLock(file: string): Promise<LockFile | null> {
  const lock = await readLock(file);
  if (lock !== null) return lock;
  await sleep(200);
  return readLock(file);
}

const sameLock = (a: LockFile | null, b: LockFile | null): boolean => JSON.stringify(a) === JSON.stringify(b);

/** An earlier lease holder finishes its last writes, then removes its lock: waited for, up to `graceMs`. */
async function waitForRelease(file: string, held: LockFile, graceMs: number): Promise<void> {
  const end = Date.now() + graceMs;
  while (Date.now() < end && sameLock(await readLock(file), held)) await sleep(Math.min(100, graceMs));
}

async function release(file: string, mine: LockFile): Promise<void> {
  if (sameLock(await readLock(file), mine)) await fs.rm(file, { force: true });
  heldHere.delete(path.resolve(file));
}

function busy(stateDir: string, held: LockFile): SopworksError {
  const project = path.dirname(stateDir);
  if (held.scope === pidScope()) {
    return new SopworksError('PROJECT_BUSY', `${project} is in use by another sopworks process (pid ${held.pid}).`, {
      hint: 'Wait for it to finish, or stop it (Ctrl-C) and then `sopworks resume` this project.',
    });
  }
  return new SopworksError('PROJECT_BUSY', `${project} is in use by ${held.owner} on ${held.scope}, which cannot be checked from here (${pidScope()}).`, {
    hint:
      held.lease === null
        ? `If that process is gone, delete ${path.join(stateDir, 'lock')} and then \`sopworks resume\` this project.`
        : 'A queue worker holds it; if that worker is gone, another worker takes the run over once its lease expires (`sopworks jobs`).',
  });
}
