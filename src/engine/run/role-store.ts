/**
 * Each role's machine state, saved at every step: the XState snapshot (the last active one — never an
 * errored or stopped one, so a resume retries the step that failed) and which board messages the role
 * has taken. Where it is kept is the store's (a file per role, written whole and renamed, or memory);
 * the order of saves and what a restore gets are decided here, once.
 */
import { z } from 'zod';
import type { RoleProgress } from '../roles/index.ts';
import { type RoleStates, type SavedRole, savedRole } from './run-store.ts';

export const RoleStateFile = z.object({
  role: z.string(),
  state: z.string(),
  status: z.enum(['active', 'done', 'error', 'stopped']),
  updatedAt: z.string(),
  delivered: z.array(z.number().int()),
  snapshot: z.unknown().nullable(),
});

/** Where saved states go: one document per role. */
export interface RoleShelf {
  write(role: string, state: SavedRole): Promise<void>;
  /** The role's document, or null when there is none (or it cannot be read). */
  read(role: string): Promise<unknown>;
}

export class RoleStore implements RoleStates {
  private readonly writes = new Map<string, Promise<void>>();
  /** Per role, the newest state waiting for the write in progress to finish (older ones are skipped). */
  private readonly waiting = new Map<string, SavedRole>();
  /** The last restorable state written per role, kept when the role errors or stops. */
  private readonly restorable = new Map<string, { snapshot: unknown; delivered: number[] }>();

  constructor(private readonly shelf: RoleShelf) {}

  /**
   * Queues a write; writes of one role happen in call order, and a state superseded before its turn
   * is skipped — a role makes several steps in a row faster than files are written, and only the newest
   * matters. (Restoring an older state is safe anyway: every effect of a step has an identity, so a
   * resumed step finds what it did; this is what a crash between a step and its write already relies on.)
   */
  save(role: string, progress: RoleProgress): Promise<void> {
    if (progress.restorable) this.restorable.set(role, progress.restorable);
    const queued = this.waiting.has(role);
    this.waiting.set(role, savedRole(role, progress, this.restorable.get(role)));
    if (queued) return this.writes.get(role)!;
    const write = (this.writes.get(role) ?? Promise.resolve()).then(async () => {
      const state = this.waiting.get(role)!;
      this.waiting.delete(role);
      await this.shelf.write(role, state);
    });
    this.writes.set(
      role,
      write.catch(() => undefined),
    );
    return write;
  }

  async load(role: string): Promise<SavedRole | null> {
    const parsed = RoleStateFile.safeParse(await this.shelf.read(role));
    if (!parsed.success) return null;
    const state: SavedRole = { ...parsed.data, snapshot: parsed.data.snapshot ?? null };
    if (state.snapshot !== null) this.restorable.set(role, { snapshot: state.snapshot, delivered: state.delivered });
    return state;
  }

  async settled(): Promise<void> {
    await Promise.all(this.writes.values());
  }
}
