/**
 * Each role's machine state, persisted at every step in `.sopworks/roles/<role>.json`: the XState
 * snapshot (the last active one — never an errored or stopped one, so a resume retries the step that
 * failed) and which board messages the role has taken. Written whole and renamed: a crash leaves the
 * previous file or the new one, never half of one.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { RoleProgress } from '../roles/role-runtime.ts';
import { assertMayWrite } from '../../ground/files/write-fence.ts';

export const RoleStateFile = z.object({
  role: z.string(),
  /** The state the machine is in (for people and the viewer), e.g. "writing". */
  state: z.string(),
  status: z.enum(['active', 'done', 'error', 'stopped']),
  updatedAt: z.string(),
  /** Seq numbers of the board messages delivered to the machine. */
  delivered: z.array(z.number().int()),
  /** XState's persisted snapshot to restore from; null before the machine ever ran. */
  snapshot: z.unknown().nullable(),
});
export type RoleStateFile = z.infer<typeof RoleStateFile>;

export class RoleStore {
  private readonly writes = new Map<string, Promise<void>>();
  /** Per role, the newest state waiting for the write in progress to finish (older ones are skipped). */
  private readonly waiting = new Map<string, RoleStateFile>();
  /** The last restorable state written per role, kept when the role errors or stops. */
  private readonly restorable = new Map<string, { snapshot: unknown; delivered: number[] }>();

  constructor(private readonly dir: string) {}

  static async open(stateDir: string): Promise<RoleStore> {
    const dir = path.join(stateDir, 'roles');
    await fs.mkdir(dir, { recursive: true });
    return new RoleStore(dir);
  }

  file(role: string): string {
    return path.join(this.dir, `${role}.json`);
  }

  /**
   * Queues a write; writes of one role happen in call order, and a state superseded before its turn
   * is skipped — a role makes several steps in a row faster than files are written, and only the newest
   * matters. (Restoring an older state is safe anyway: every effect of a step has an identity, so a
   * resumed step finds what it did; this is what a crash between a step and its write already relies on.)
   */
  save(role: string, progress: RoleProgress): Promise<void> {
    if (progress.restorable) this.restorable.set(role, progress.restorable);
    const kept = this.restorable.get(role);
    const state: RoleStateFile = {
      role,
      state: progress.state,
      status: progress.status,
      updatedAt: new Date().toISOString(),
      delivered: kept?.delivered ?? [],
      snapshot: kept?.snapshot ?? null,
    };
    const file = this.file(role);
    const queued = this.waiting.has(role);
    this.waiting.set(role, state);
    if (queued) return this.writes.get(role)!;
    const write = (this.writes.get(role) ?? Promise.resolve()).then(async () => {
      const text = JSON.stringify(this.waiting.get(role)!) + '\n';
      this.waiting.delete(role);
      assertMayWrite(file);
      await fs.writeFile(`${file}.tmp`, text);
      await fs.rename(`${file}.tmp`, file);
    });
    this.writes.set(
      role,
      write.catch(() => undefined),
    );
    return write;
  }

  async load(role: string): Promise<RoleStateFile | null> {
    const text = await fs.readFile(this.file(role), 'utf8').catch(() => null);
    if (text === null) return null;
    const parsed = RoleStateFile.safeParse(JSON.parse(text));
    if (!parsed.success) return null;
    if (parsed.data.snapshot !== null) this.restorable.set(role, { snapshot: parsed.data.snapshot, delivered: parsed.data.delivered });
    return parsed.data;
  }

  async settled(): Promise<void> {
    await Promise.all(this.writes.values());
  }
}
