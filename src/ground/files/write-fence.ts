/**
 * Folders whose writes may stop being ours: a queued run's folder is written only while its worker holds
 * the run's lease (src/apps/queue/run-lease.ts). Every durable write of a run asks first — synchronously,
 * right before the write, so a process that was paused (a stopped VM, a long GC, SIGSTOP) past its lease
 * learns it before writing, not after, when a timer of its own would tell it.
 */
import path from 'node:path';
import { SopworksError } from '../errors.ts';

/** Why writes under the folder must stop now, or null while they may go on. */
export type FenceCheck = () => string | null;

const fences = new Map<string, FenceCheck>();

/** Puts writes under `folder` behind `check` until the returned function is called. */
export function fenceWrites(folder: string, check: FenceCheck): () => void {
  const key = path.resolve(folder);
  fences.set(key, check);
  return () => {
    if (fences.get(key) === check) fences.delete(key);
  };
}

/** Throws WRITE_FENCED when `file` lies under a fenced folder whose check says to stop. */
export function assertMayWrite(file: string): void {
  if (fences.size === 0) return;
  const target = path.resolve(file);
  for (const [folder, check] of fences) {
    if (target !== folder && !target.startsWith(folder + path.sep)) continue;
    const reason = check();
    if (reason !== null) {
      throw new SopworksError('WRITE_FENCED', `Not written: ${target} (${reason}).`, {
        hint: 'Another worker may have taken this run over; it resumes the run from its folder.',
      });
    }
  }
}
