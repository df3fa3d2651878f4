/**
 * Chaos decisions are drawn, not rolled: every number comes from a hash of the seed and the call's
 * identity (its series and occurrence), so the same seed spoils the same replies the same way in every
 * process — a run killed and resumed, or run again, meets exactly the same faults.
 */
import { createHash } from 'node:crypto';

export interface Draws {
  /** A number in [0, 1). */
  next(): number;
  /** A whole number in [min, max]. */
  int(min: number, max: number): number;
  /** One of the items (none given: an error). */
  pick<T>(items: readonly T[]): T;
}

export function drawsFor(seed: number, ...identity: readonly (string | number)[]): Draws {
  const base = `${seed}\u0000${identity.join('\u0000')}`;
  let counter = 0;
  let pool: Buffer = Buffer.alloc(0);
  const next = (): number => {
    if (pool.length < 6) {
      pool = createHash('sha256').update(`${base}\u0000${counter++}`).digest();
    }
    const value = pool.readUIntBE(0, 6) / 2 ** 48;
    pool = pool.subarray(6);
    return value;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new Error('nothing to pick from');
      return items[Math.floor(next() * items.length)]!;
    },
  };
}
