/**
 * The queue's Redis, from SOPWORKS_REDIS_URL: reachable, and configured not to evict keys (BullMQ
 * loses jobs otherwise) — each checked before anything is queued or run, with a message that says
 * what to fix. A password or an ACL user goes in the URL (`redis://user:password@host:6379`), TLS is
 * `rediss://` (a private CA through Node's NODE_EXTRA_CA_CERTS): docs/scaling.md.
 */
import { Redis } from 'ioredis';
import { z } from 'zod';
import { SopworksError } from '../../ground/errors.ts';
import { cleanLine } from '../../ground/terminal-text.ts';
import { MINIMUM_VERSION, RECOMMENDED_VERSION, serverFacts, versionBelow } from './redis-server-check.ts';

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
 * it answers within a few seconds, its version is one BullMQ runs on, and its maxmemory-policy is
 * noeviction. What is worth saying but not refusing goes to `notice` (sopworks' own output); neither
 * ioredis nor BullMQ print anything themselves (redis-server-check.ts).
 */
export async function connectRedis(url: string, notice: (line: string) => void = () => {}): Promise<Redis> {
  // No ready check: ioredis' runs INFO and, when an ACL user may not, warns on the console. The PING
  // below fails (LOADING) as long as Redis is still loading its data.
  const redis = new Redis(url, { maxRetriesPerRequest: null, lazyConnect: true, connectTimeout: 3000, retryStrategy: () => null, enableReadyCheck: false });
  // ioredis reports the cause of a failed connection (ECONNREFUSED, …) on 'error'; connect() only says it closed.
  let cause: unknown = null;
  redis.on('error', (error) => (cause ??= error));
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    const why = describeRedisError(cause ?? error);
    throw new SopworksError('QUEUE_UNREACHABLE', `Cannot reach Redis at ${shownUrl(url)} (${why}). Nothing was queued or run.`, {
      hint: hintFor(why),
    });
  }
  // Reconnect from now on: a worker outlives a Redis restart.
  redis.options.retryStrategy = (times: number) => Math.min(times * 200, 2000);
  const refuse = (problem: string, hint: string): never => {
    redis.disconnect();
    throw new SopworksError('QUEUE_MISCONFIGURED', `Redis at ${shownUrl(url)} ${problem}. Nothing was queued or run.`, { hint });
  };
  const { version, policy } = await serverFacts(redis);
  if (version !== null && versionBelow(version, MINIMUM_VERSION)) {
    refuse(`is version ${version}; the queue (BullMQ) needs ${MINIMUM_VERSION} or later`, `Upgrade Redis to ${RECOMMENDED_VERSION} or later.`);
  }
  if (policy !== null && policy !== 'noeviction') {
    refuse(
      `evicts keys (maxmemory-policy ${policy}): it could drop queued jobs`,
      'Configure it with maxmemory-policy noeviction (redis-cli CONFIG SET maxmemory-policy noeviction, or in redis.conf).',
    );
  }
  if (version !== null && versionBelow(version, RECOMMENDED_VERSION)) {
    notice(`Redis at ${shownUrl(url)} is version ${version}: the queue works, but ${RECOMMENDED_VERSION} or later is recommended (BullMQ).`);
  }
  return redis;
}

function describeRedisError(error: unknown): string {
  const e = error as { code?: string; message?: string };
  if (e.code) return e.code;
  if (/WRONGPASS|NOAUTH/.test(e.message ?? '')) return 'authentication failed';
  if (/NOPERM/.test(e.message ?? '')) return `permission denied: ${e.message}`;
  return e.message ?? String(error);
}

/** What to do about it: the certificate, the credentials, or where Redis runs. */
function hintFor(why: string): string {
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ALTNAME/.test(why))
    return "Redis's TLS certificate is not trusted here: give its CA with NODE_EXTRA_CA_CERTS=/path/to/ca.pem (and connect by a name the certificate holds).";
  if (/authentication failed/.test(why)) return `Check the user and password in ${REDIS_URL_ENV} (redis://user:password@host:6379).`;
  if (/permission denied/.test(why)) return 'Give the ACL user the commands the queue needs (docs/scaling.md, "Redis with a password, an ACL user, TLS").';
  return `Start Redis (redis-server --maxmemory-policy noeviction) or set ${REDIS_URL_ENV} to where it runs.`;
}

/** An error BullMQ emitted (a dropped connection, say), as one clean line of sopworks' output. */
export const queueErrorLine = (error: Error): string => cleanLine(`the queue's Redis: ${error.message}`);
