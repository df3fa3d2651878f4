/**
 * One place owns a run's durable state: the board, the exchange log, each role's machine state, the
 * run's record (run.json), the approval requests it waits on, and the lock that keeps one process on it.
 * Two implementations share one conformance test (test/unit/engine/run/run-store.test.ts): the files of
 * `.sopworks/` (file-run-store.ts) and memory (memory-run-store.ts), on which the run loop is tested
 * without a disk.
 */
import type { FenceCheck, RecordLog } from '../../ground/files/index.ts';
import type { RoleProgress } from '../roles/index.ts';

/** A log as it was found: its records, and a torn last line that was dropped (a crash mid-write), if any. */
export interface OpenedLog {
  records: unknown[];
  droppedTail: string | null;
  log: RecordLog;
}

/** A role's state as last saved: the machine's snapshot to restore and the board messages it took. */
export interface SavedRole {
  role: string;
  /** The state the machine is in (for people and the viewer), e.g. "writing". */
  state: string;
  status: 'active' | 'done' | 'error' | 'stopped';
  updatedAt: string;
  /** Seq numbers of the board messages delivered to the machine. */
  delivered: number[];
  /** XState's persisted snapshot to restore from; null before the machine ever ran. */
  snapshot: unknown;
}

/** Each role's machine state, saved at every step. */
export interface RoleStates {
  /** Queues a save; saves of one role happen in call order, and only the newest matters. */
  save(role: string, progress: RoleProgress): Promise<void>;
  load(role: string): Promise<SavedRole | null>;
  /** Resolves once every save queued so far is done. */
  settled(): Promise<void>;
}

/** A lease on a run held by this process (in Redis, by a queue worker). */
export interface RunLease {
  /** Who holds it, for messages (the worker's id). */
  owner: string;
  /** Unique to this holding: a lock file written under it names it. */
  token: string;
  /** How long an earlier holder may still be finishing its last writes after its lease expired. */
  graceMs: number;
  /** Aborted once the lease is lost: the run stops at once. */
  lost: AbortSignal;
  /** Synchronous: why the run must not write any more (its lease ran out or was lost), or null. */
  check: FenceCheck;
}

export interface RunLock {
  /** Whom a stale lock was taken over from and why, if anyone ("process 12, which is no longer running"). */
  tookOver: string | null;
  /** Aborted when the run must stop at once: the lease it was taken under was lost (run-lock.ts). */
  lost: AbortSignal;
  release(): Promise<void>;
}

export interface RunStore {
  /** Where the state is, for a person: the `.sopworks/` folder, or "memory". */
  readonly where: string;
  /** Takes the run's lock, or fails with PROJECT_BUSY while another process holds it; `lease`: a queued run's (run-lock.ts). */
  lock(lease?: RunLease | null): Promise<RunLock>;
  /** The board's log, repaired of a torn last line; its records are checked by the board. */
  openBoard(): Promise<OpenedLog>;
  /** The exchange log of every model call, repaired of a torn last line. */
  openExchanges(): Promise<OpenedLog>;
  readonly roles: RoleStates;
  /** run.json: what the run was started with and how it ended, or null before it is written. */
  readRecord(): Promise<unknown>;
  writeRecord(record: object): Promise<void>;
  /** The approval requests a stopped run waits on (empty when none). */
  readWaiting(): Promise<unknown[]>;
  writeWaiting(requests: readonly object[]): Promise<void>;
}

/** What a saved role is after `progress`: the newest state, with the last restorable snapshot kept (never an errored or stopped one). */
export function savedRole(role: string, progress: RoleProgress, kept: { snapshot: unknown; delivered: number[] } | undefined): SavedRole {
  return {
    role,
    state: progress.state,
    status: progress.status,
    updatedAt: new Date().toISOString(),
    delivered: kept?.delivered ?? [],
    snapshot: kept?.snapshot ?? null,
  };
}
