/**
 * A run's state in the files of its `.sopworks/` folder: board.jsonl (flushed at every message),
 * exchanges.jsonl (flushed when the run ends), roles/<role>.json, run.json and approvals.json (each
 * written whole and renamed, so a crash leaves the old file or the new one), and the lock. Every write
 * asks the write fence first: a queued run whose lease was lost writes nothing (ground/files/write-fence.ts).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { CrashPointName } from '../../ground/crash-point.ts';
import { SopworksError } from '../../ground/errors.ts';
import { AppendLog, assertMayWrite, type Flush, repairAppendLog } from '../../ground/files/index.ts';
import { RoleStore } from './role-store.ts';
import { acquireRunLock } from './run-lock.ts';
import type { OpenedLog, RunLease, RunLock, RunStore } from './run-store.ts';
import { STATE_DIR } from './state-dir.ts';

/** Written whole to a temporary file and renamed, so a crash never leaves half of it. */
async function writeWhole(file: string, value: unknown): Promise<void> {
  assertMayWrite(file);
  await fs.writeFile(`${file}.tmp`, JSON.stringify(value, null, 2) + '\n');
  await fs.rename(`${file}.tmp`, file);
}

async function openLog(file: string, flush: Flush, crashPointName?: CrashPointName): Promise<OpenedLog> {
  const { records, droppedTail } = await repairAppendLog(file);
  return { records, droppedTail, log: await AppendLog.open(file, { flush, ...(crashPointName ? { crashPointName } : {}) }) };
}

export class FileRunStore implements RunStore {
  readonly roles: RoleStore;

  /** `where`: the `.sopworks/` folder. */
  private constructor(readonly where: string) {
    const rolesDir = path.join(where, 'roles');
    let made: Promise<unknown> | null = null;
    this.roles = new RoleStore({
      write: async (role, state) => {
        await (made ??= fs.mkdir(rolesDir, { recursive: true }));
        const file = path.join(rolesDir, `${role}.json`);
        assertMayWrite(file);
        await fs.writeFile(`${file}.tmp`, JSON.stringify(state) + '\n');
        await fs.rename(`${file}.tmp`, file);
      },
      read: async (role) => {
        const text = await fs.readFile(path.join(rolesDir, `${role}.json`), 'utf8').catch(() => null);
        try {
          return text === null ? null : (JSON.parse(text) as unknown);
        } catch {
          return null;
        }
      },
    });
  }

  /** The store of the project at `projectDir`, in its `.sopworks/` folder (made with the repository, src/capabilities/repository/workspace.ts). */
  static of(projectDir: string): FileRunStore {
    return new FileRunStore(path.join(projectDir, STATE_DIR));
  }

  /** The path of one of its files (the review tools read them). */
  file(name: 'board.jsonl' | 'exchanges.jsonl' | 'run.json' | 'approvals.json'): string {
    return path.join(this.where, name);
  }

  lock(lease: RunLease | null = null): Promise<RunLock> {
    return acquireRunLock(this.where, lease);
  }

  openBoard(): Promise<OpenedLog> {
    return openLog(this.file('board.jsonl'), 'each', 'board.append');
  }

  openExchanges(): Promise<OpenedLog> {
    return openLog(this.file('exchanges.jsonl'), 'close');
  }

  async readRecord(): Promise<unknown> {
    const file = this.file('run.json');
    const text = await fs.readFile(file, 'utf8').catch(() => null);
    if (text === null) return null;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new SopworksError('USAGE', `${file} is damaged: it is not JSON.`, { hint: 'Restore it from a copy, or start a new run.' });
    }
  }

  writeRecord(record: object): Promise<void> {
    return writeWhole(this.file('run.json'), record);
  }

  async readWaiting(): Promise<unknown[]> {
    const text = await fs.readFile(this.file('approvals.json'), 'utf8').catch(() => '[]');
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? parsed : [];
  }

  async writeWaiting(requests: readonly object[]): Promise<void> {
    if (requests.length === 0) await fs.rm(this.file('approvals.json'), { force: true });
    else await writeWhole(this.file('approvals.json'), requests);
  }
}
