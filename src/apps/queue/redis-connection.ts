/**
 * The queue's Redis, from SOPWORKS_REDIS_URL: reachable, and configured not to evict keys (BullMQ
 * loses jobs otherwise) — each checked before anything is queued or run, with a message that says
 * what to fix.
 */
import { Redis } from 'ioredis';
import { z } from 'zod';
import { SopworksError } from '../../ground/errors.ts';

export const REDIS_URL_ENV = 'SOPWORKS_REDIS_URL';
const DEFAULT_URL = 'redis://127.0.0.1:6379';

const RedisUrl = z
  .string()
  .trim()
  .regex(/^rediss?:\/\/[^\s/]+(\/\d+)?$/, 'must be a redis:// or rediss:// URL such as redis://127.0.0.1:6379 (optionally /<db>)');

const Env = z.object({
  SOPWORKS_REDIS_URL: z.string().optional(),
});

/** The URL from the environment (the default on this machine when unset). */
export function redisUrl(env: NodeJS.ProcessEnv = process.env): string {
  const raw = Env.parse(env).SOPWORKS_REDIS_URL?.trim() || DEFAULT_URL;
  const parsed = RedisUrl.safeParse(raw);
  if (!parsed.success) {
    throw new SopworksError('CONFIG_INVALID', `${REDIS_URL_ENV}="${raw}" ${parsed.error.issues[0]!.message}.`, {
      hint: `Set ${REDIS_URL_ENV} in the environment or .env.`,
    });
  }
  return parsed.data;
}

/** The URL without a password, for messages. */
export const shownUrl = (url: string): string => url.replace(/\/\/[^@/]*@/, '//***@');

/**
 * A connection for BullMQ (which needs `maxRetriesPerRequest: null` for its blocking commands), checked:
 * it answers within a few seconds and its maxmemory-policy is noeviction.
 */
export async function connectRedis(url: string): Promise<Redis> {
  const redis = new Redis(url, { maxRetriesPerRequest: null, lazyConnect: true, connectTimeout: 3000, retryStrategy: () => null });
  // ioredis reports the cause of a failed connection (ECONNREFUSED, …) on 'error'; connect() only says it closed.
  let cause: unknown = null;
  redis.on('error', (error) => (cause ??= error));
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    throw new SopworksError('QUEUE_UNREACHABLE', `Cannot reach Redis at ${shownUrl(url)} (${describeRedisError(cause ?? error)}). Nothing was queued or run.`, {
      hint: `Start Redis (redis-server --maxmemory-policy noeviction) or set ${REDIS_URL_ENV} to where it runs.`,
    });
  }
  // Reconnect from now on: a worker outlives a Redis restart.
  redis.options.retryStrategy = (times: number) => Math.min(times * 200, 2000);
  const policy = await maxmemoryPolicy(redis);
  if (policy !== null && policy !== 'noeviction') {
    redis.disconnect();
    throw new SopworksError(
      'QUEUE_MISCONFIGURED',
      `Redis at ${shownUrl(url)} evicts keys (maxmemory-policy ${policy}): it could drop queued jobs. Nothing was queued or run.`,
      {
        hint: 'Configure it with maxmemory-policy noeviction (redis-cli CONFIG SET maxmemory-policy noeviction, or in redis.conf).',
      },
    );
  }
  return redis;
}

/** The eviction policy, or null when CONFIG is not allowed (a managed Redis): then its operator vouches for it. */
async function maxmemoryPolicy(redis: Redis): Promise<string | null> {
  try {
    const reply = (await redis.config('GET', 'maxmemory-policy')) as string[];
    return reply[1] ?? null;
  } catch {
    return null;
  }
}

function describeRedisError(error: unknown): string {
  const e = error as { code?: string; message?: string };
  if (e.code) return e.code;
  if (/WRONGPASS|NOAUTH/.test(e.message ?? '')) return 'authentication failed';
  return e.message ?? String(error);
}
