/**
 * Folders whose writes may stop being ours: a queued run's folder is written only while its worker holds
 * the run's lease (src/apps/queue/run-lease.ts). Every durable write of a run asks first — synchronously,
 * right before the write, so a process that was paused (a stopped VM, a long GC, SIGSTOP) past its lease
 * learns it before writing, not after, when a timer of its own would tell it.
 *
 * A fence is the process's while its run goes on (whatever code writes under the folder is asked), and
 * stays with everything the run started, for as long as that lives: it is carried in the run's async
 * context, so a step still in flight when the run stopped — a sandboxed command that ends later, then
 * copies back and puts back what it found changed — asks the lease of the run that started it, never a
 * newer one of the same folder. What a run started that writes by itself (git's import stream, a
 * sandboxed command) is killed when the fence's `lost` signal fires.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import path from 'node:path';
import { SopworksError } from '../errors.ts';

/** Why writes under the folder must stop now, or null while they may go on. */
export type FenceCheck = () => string | null;

interface Fence {
  check: FenceCheck;
  /** Fires once writes must stop (the lease lost); absent: only the check says so. */
  lost: AbortSignal | null;
  /** The folder as given (resolved) and as the system resolves its links (a linked /tmp, say). */
  places: string[];
}

/** The fences of the runs under way in this process. */
const registered = new Set<Fence>();
/** The fences of the run whose code this is, however long it outlives the run. */
const inherited = new AsyncLocalStorage<readonly Fence[]>();

const fenceOf = (folder: string, check: FenceCheck, lost: AbortSignal | null): Fence => {
  const resolved = path.resolve(folder);
  return { check, lost, places: [...new Set([resolved, realPlace(resolved)])] };
};

/** Puts writes under `folder` behind `check` until the returned function is called. */
export function fenceWrites(folder: string, check: FenceCheck, lost: AbortSignal | null = null): () => void {
  const fence = fenceOf(folder, check, lost);
  registered.add(fence);
  return () => {
    registered.delete(fence);
  };
}

/**
 * Runs `run` with writes under `folder` behind `check`: for the process while it runs, and for
 * everything it started for good — its leftovers keep asking `check` after it has returned.
 */
export async function withFencedWrites<T>(folder: string, check: FenceCheck, lost: AbortSignal | null, run: () => Promise<T>): Promise<T> {
  const fence = fenceOf(folder, check, lost);
  registered.add(fence);
  try {
    return await inherited.run([...(inherited.getStore() ?? []), fence], run);
  } finally {
    registered.delete(fence);
  }
}

/** Why writes to `file` must stop now (a fence above it says so), or null while they may go on. */
export function fenceReason(file: string): string | null {
  for (const fence of covering(file)) {
    const reason = fence.check();
    if (reason !== null) return reason;
  }
  return null;
}

/** Throws WRITE_FENCED when `file` lies under a fenced folder whose check says to stop. */
export function assertMayWrite(file: string): void {
  const reason = fenceReason(file);
  if (reason !== null) {
    throw new SopworksError('WRITE_FENCED', `Not written: ${path.resolve(file)} (${reason}).`, {
      hint: 'Another worker may have taken this run over; it resumes the run from its folder.',
    });
  }
}

/**
 * A signal that fires when writes under `file` must stop — for a process a run starts there, to be
 * killed then — or null when no fence with a signal covers it.
 */
export function fenceLost(file: string): AbortSignal | null {
  const signals = covering(file).flatMap((fence) => (fence.lost ? [fence.lost] : []));
  return signals.length === 0 ? null : signals.length === 1 ? signals[0]! : AbortSignal.any(signals);
}

function covering(file: string): Fence[] {
  const own = inherited.getStore();
  if (registered.size === 0 && !own) return [];
  const target = path.resolve(file);
  return [...new Set([...registered, ...(own ?? [])])].filter((fence) =>
    fence.places.some((folder) => target === folder || target.startsWith(folder + path.sep)),
  );
}

/** The real path of a folder that may not exist yet: its nearest existing parent's, with the rest as given. */
function realPlace(resolved: string): string {
  const rest: string[] = [];
  for (let existing = resolved; ; existing = path.dirname(existing)) {
    try {
      return path.join(fs.realpathSync.native(existing), ...rest.reverse());
    } catch {
      if (path.dirname(existing) === existing) return resolved;
      rest.push(path.basename(existing));
    }
  }
}
