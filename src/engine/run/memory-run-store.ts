/**
 * A run's state in memory, for tests and tooling: the same promises as the files of `.sopworks/`
 * (the conformance test, test/unit/engine/run/run-store.test.ts, runs both), without a disk. Records are copied as
 * JSON on the way in, so what is read back is what a file would have held.
 */
import { SopworksError } from '../../ground/errors.ts';
import { RoleStore } from './role-store.ts';
import type { OpenedLog, RunLock, RunStore } from './run-store.ts';

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

export class MemoryRunStore implements RunStore {
  readonly where = 'memory';
  private readonly board: unknown[] = [];
  private readonly exchanges: unknown[] = [];
  private readonly roleStates = new Map<string, unknown>();
  private record: unknown = null;
  private waiting: unknown[] = [];
  private locked = false;
  readonly roles = new RoleStore({
    write: async (role, state) => void this.roleStates.set(role, copy(state)),
    read: async (role) => copy(this.roleStates.get(role) ?? null),
  });

  async lock(): Promise<RunLock> {
    if (this.locked) throw new SopworksError('PROJECT_BUSY', 'This run (in memory) is in use by another run loop.');
    this.locked = true;
    return { tookOver: null, lost: new AbortController().signal, release: async () => void (this.locked = false) };
  }

  openBoard(): Promise<OpenedLog> {
    return this.open(this.board);
  }

  openExchanges(): Promise<OpenedLog> {
    return this.open(this.exchanges);
  }

  private async open(records: unknown[]): Promise<OpenedLog> {
    return { records: copy(records), droppedTail: null, log: { append: async (record) => void records.push(copy(record)), close: async () => {} } };
  }

  async readRecord(): Promise<unknown> {
    return copy(this.record);
  }

  async writeRecord(record: object): Promise<void> {
    this.record = copy(record);
  }

  async readWaiting(): Promise<unknown[]> {
    return copy(this.waiting);
  }

  async writeWaiting(requests: readonly object[]): Promise<void> {
    this.waiting = copy([...requests]);
  }
}
