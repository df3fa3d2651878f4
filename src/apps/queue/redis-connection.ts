/**
 * The queue's Redis, from SOPWORKS_REDIS_URL: reachable, and configured not to evict keys (BullMQ
 * loses jobs otherwise) — each checked before anything is queued or run, with a message that says
 * what to fix. A password or an ACL user goes in the URL (`redis://user:password@host:6379`), TLS is
 * `rediss://` (a private CA through Node's NODE_EXTRA_CA_CERTS): docs/scaling.md. A Redis that cannot be
 * reached is tried again for a while (SOPWORKS_REDIS_WAIT_MS; a worker waits until it can), saying so;
 * once connected, a connection reconnects with backoff.
 */
import { setTimeout as sleep } from 'node:timers/promises';
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

const WaitEnv = z.object({
  SOPWORKS_REDIS_WAIT_MS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return 10_000;
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0) {
        ctx.addIssue({ code: 'custom', message: `must be a whole number of milliseconds ≥ 0, got "${v}"` });
        return z.NEVER;
      }
      return n;
    }),
});

/** How long `submit` and `eval --queue` keep trying a Redis they cannot reach (SOPWORKS_REDIS_WAIT_MS, default 10 s). */
export function redisWaitMs(env: NodeJS.ProcessEnv = process.env): number {
  const parsed = WaitEnv.safeParse(env);
  if (!parsed.success) {
    throw new SopworksError('CONFIG_INVALID', `SOPWORKS_REDIS_WAIT_MS ${parsed.error.issues[0]!.message}.`, {
      hint: 'Set it in the environment or .env (.env.example), e.g. SOPWORKS_REDIS_WAIT_MS=10000.',
    });
  }
  return parsed.data.SOPWORKS_REDIS_WAIT_MS;
}

export interface ConnectOptions {
  /** Keep trying an unreachable Redis for this long; null: until `stop`. Default: once. */
  waitMs?: number | null;
  /** Told once when Redis cannot be reached and the command keeps trying. */
  onWaiting?: (line: string) => void;
  stop?: AbortSignal;
  /** What is worth saying but not refusing (an old Redis version), as sopworks' own output. */
  notice?: (line: string) => void;
}

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
export async function connectRedis(url: string, options: ConnectOptions = {}): Promise<Redis> {
  const waitMs = options.waitMs === undefined ? 0 : options.waitMs;
  const started = Date.now();
  let redis: Redis;
  for (let attempt = 1; ; attempt++) {
    const connected = await connectOnce(url);
    if ('redis' in connected) {
      redis = connected.redis;
      break;
    }
    const waited = Date.now() - started;
    if ((waitMs !== null && waited >= waitMs) || options.stop?.aborted || connected.kind !== 'unreachable') {
      const tried = waited >= 1000 ? `, tried for ${Math.round(waited / 1000)} s` : '';
      throw new SopworksError('QUEUE_UNREACHABLE', `Cannot reach Redis at ${shownUrl(url)} (${connected.cause}${tried}). Nothing was queued or run.`, {
        hint: HINTS[connected.kind],
      });
    }
    if (attempt === 1)
      options.onWaiting?.(
        `Redis at ${shownUrl(url)} cannot be reached (${connected.cause}); trying again ${waitMs === null ? 'until it can be (SIGTERM or Ctrl-C to stop)' : `for up to ${Math.round(waitMs / 1000)} s`}…`,
      );
    const pause = Math.min(200 * 2 ** (attempt - 1), 2000, waitMs === null ? Number.POSITIVE_INFINITY : Math.max(0, waitMs - waited));
    await sleep(pause, undefined, { signal: options.stop }).catch(() => undefined);
  }
  // Reconnect from now on, with backoff: a worker outlives a Redis restart, a submission a short blip.
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
    options.notice?.(`Redis at ${shownUrl(url)} is version ${version}: the queue works, but ${RECOMMENDED_VERSION} or later is recommended (BullMQ).`);
  }
  return redis;
}

/** One try: a checked connection, or why it failed. */
async function connectOnce(url: string): Promise<{ redis: Redis } | { cause: string; kind: FailureKind }> {
  // No ready check: ioredis' runs INFO and, when an ACL user may not, warns on the console. The PING
  // below fails (LOADING) as long as Redis is still loading its data.
  const redis = new Redis(url, { maxRetriesPerRequest: null, lazyConnect: true, connectTimeout: 3000, retryStrategy: () => null, enableReadyCheck: false });
  // ioredis reports the cause of a failed connection (ECONNREFUSED, …) on 'error'; connect() only says it closed.
  let cause: unknown = null;
  redis.on('error', (error) => (cause ??= error));
  try {
    await redis.connect();
    await redis.ping();
    return { redis };
  } catch (error) {
    redis.disconnect();
    return describeRedisError(cause ?? error);
  }
}

/** What kind of failure a connection met: only an unreachable Redis may come up while we wait. */
type FailureKind = 'untrusted-certificate' | 'authentication' | 'permission' | 'unreachable';

/**
 * Why a connection failed, by Node's error code (a TLS certificate not trusted) or the code a Redis error
 * reply starts with (WRONGPASS, NOAUTH, NOPERM); anything else is Redis not (yet) reachable.
 */
function describeRedisError(error: unknown): { cause: string; kind: FailureKind } {
  const e = error as { code?: string; message?: string };
  if (e.code) return { cause: e.code, kind: /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ALTNAME/.test(e.code) ? 'untrusted-certificate' : 'unreachable' };
  const reply = /^[A-Z]+/.exec(e.message ?? '')?.[0];
  if (reply === 'WRONGPASS' || reply === 'NOAUTH') return { cause: 'authentication failed', kind: 'authentication' };
  if (reply === 'NOPERM') return { cause: `permission denied: ${e.message}`, kind: 'permission' };
  return { cause: e.message ?? String(error), kind: 'unreachable' };
}

/** What to do about it: the certificate, the credentials, or where Redis runs. */
const HINTS: Record<FailureKind, string> = {
  'untrusted-certificate':
    "Redis's TLS certificate is not trusted here: give its CA with NODE_EXTRA_CA_CERTS=/path/to/ca.pem (and connect by a name the certificate holds).",
  authentication: `Check the user and password in ${REDIS_URL_ENV} (redis://user:password@host:6379).`,
  permission: 'Give the ACL user the commands the queue needs (docs/scaling.md, "Redis with a password, an ACL user, TLS").',
  unreachable: `Start Redis (redis-server --maxmemory-policy noeviction) or set ${REDIS_URL_ENV} to where it runs.`,
};

/** An error BullMQ emitted (a dropped connection, say), as one clean line of sopworks' output. */
export const queueErrorLine = (error: Error): string => cleanLine(`the queue's Redis: ${error.message}`);
