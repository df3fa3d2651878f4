/**
 * One holder per project: `.sopworks/lock` holds the owner's pid. A lock left by a process that no
 * longer exists (a crash, kill -9) is stale and taken over; one this process holds (two runs of one
 * project in one worker, say) is not, even though the pid is its own.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { SopworksError } from '../../ground/errors.ts';

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The pid of the live process working on a run (from its lock), or null when none is. */
export async function lockOwner(stateDir: string): Promise<number | null> {
  const pid = Number((await fs.readFile(path.join(stateDir, 'lock'), 'utf8').catch(() => '')).trim());
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : null;
}

export interface RunLock {
  /** Whether a stale lock of a dead process was taken over. */
  tookOver: number | null;
  release(): Promise<void>;
}

/** The lock files this process holds: its own pid in one of them is not a stale lock. */
const heldHere = new Set<string>();

export async function acquireRunLock(stateDir: string): Promise<RunLock> {
  const file = path.join(stateDir, 'lock');
  if (heldHere.has(path.resolve(file))) {
    throw new SopworksError('PROJECT_BUSY', `${path.dirname(stateDir)} is in use by another run of this process (pid ${process.pid}).`, {
      hint: 'Wait for it to finish, or stop it (Ctrl-C) and then `sopworks resume` this project.',
    });
  }
  let tookOver: number | null = null;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await fs.open(file, 'wx');
      heldHere.add(path.resolve(file));
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      return {
        tookOver,
        release: async () => {
          const owner = await fs.readFile(file, 'utf8').catch(() => '');
          if (Number(owner.trim()) === process.pid) await fs.rm(file, { force: true });
          heldHere.delete(path.resolve(file));
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number((await fs.readFile(file, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
        throw new SopworksError('PROJECT_BUSY', `${path.dirname(stateDir)} is in use by another sopworks process (pid ${owner}).`, {
          hint: 'Wait for it to finish, or stop it (Ctrl-C) and then `sopworks resume` this project.',
        });
      }
      tookOver = Number.isInteger(owner) && owner > 0 ? owner : null;
      await fs.rm(file, { force: true });
    }
  }
  throw new SopworksError('PROJECT_BUSY', `Could not take the lock ${file}: another process keeps taking it.`);
}
