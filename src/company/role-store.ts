/**
 * Each role's machine state, persisted at every step in `.sopworks/roles/<role>.json`: the XState
 * snapshot (the last active one — never an errored or stopped one, so a resume retries the step that
 * failed) and which board messages the role has taken. Written whole and renamed: a crash leaves the
 * previous file or the new one, never half of one.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { RoleProgress } from '../roles/RoleRuntime.ts';

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

  /** Queues a write; writes of one role happen in call order. */
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
    const text = JSON.stringify(state) + '\n';
    const write = (this.writes.get(state.role) ?? Promise.resolve()).then(async () => {
      await fs.writeFile(`${file}.tmp`, text);
      await fs.rename(`${file}.tmp`, file);
    });
    this.writes.set(state.role, write.catch(() => undefined));
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
