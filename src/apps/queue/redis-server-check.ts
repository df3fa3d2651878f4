/**
 * What the queue needs of the Redis server, checked once per connection by sopworks rather than by
 * ioredis and BullMQ, which would print their findings straight to the console — past sopworks'
 * output and its cleaning (docs/security.md, "The terminal"): BullMQ's own check is switched off
 * (`skipVersionCheck`, run-queue.ts) and so is ioredis' ready check (redis-connection.ts), which warns
 * on the console when the user may not run INFO.
 */
import type { Redis } from 'ioredis';

/** BullMQ refuses older servers; below the recommended one some of its commands are slower. */
export const MINIMUM_VERSION = '5.0.0';
export const RECOMMENDED_VERSION = '6.2.0';

export interface ServerFacts {
  /** `redis_version`, or null when INFO is not allowed (a restricted ACL user). */
  version: string | null;
  /** The eviction policy, or null when neither CONFIG nor INFO is allowed: the operator vouches for it. */
  policy: string | null;
}

/** A field of an INFO section (`name:value` lines). */
const infoField = (info: string, name: string): string | null => new RegExp(`^${name}:(.*)$`, 'm').exec(info)?.[1]?.trim() ?? null;

const allowedOrNull = async <T>(read: () => Promise<T>): Promise<T | null> => {
  try {
    return await read();
  } catch {
    return null;
  }
};

export async function serverFacts(redis: Redis): Promise<ServerFacts> {
  const info = (await allowedOrNull(() => redis.info('server'))) ?? '';
  const memory = (await allowedOrNull(() => redis.info('memory'))) ?? '';
  const config = await allowedOrNull(async () => ((await redis.config('GET', 'maxmemory-policy')) as string[])[1] ?? null);
  return { version: infoField(info, 'redis_version'), policy: config ?? infoField(memory, 'maxmemory_policy') };
}

/** Whether dotted version `a` is below `b` (missing parts count as 0). */
export function versionBelow(a: string, b: string): boolean {
  const parts = (v: string) => v.split('.').map((n) => Number.parseInt(n, 10) || 0);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) < (y[i] ?? 0);
  }
  return false;
}
