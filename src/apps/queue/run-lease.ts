/**
 * A queued run's lease in Redis: who may work on a run folder, across machines. A pid means nothing on
 * another machine; a lease does. Its holder renews it every third of its time to live; a holder that
 * dies (kill -9, a lost machine) stops renewing and the lease expires, and only then can another worker
 * take it. A holder that cannot reach Redis stops its run before the lease can expire: at two thirds of
 * the time to live after the last renewal that reached Redis — by its own monotonic clock, checked
 * synchronously before every write of the run (engine/run/run-lock.ts, ground/files/write-fence.ts), so
 * a process paused past its lease writes nothing when it wakes. The worker that takes an expired lease
 * then waits for the earlier holder's lock on the folder to go, up to one more time to live.
 *
 * The value is the holder's token and id, compared on every renewal and release (a Lua script, atomic in
 * Redis). A renewal that finds the key gone — a Redis restarted without its last writes — takes it back
 * while the lease is still valid by the holder's clock: nobody else can have had it.
 */
import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Redis } from 'ioredis';
import type { RunLease } from '../../engine/run/index.ts';

const KEY_PREFIX = 'sopworks:run-lease:';

/** 1: renewed; 2: taken back after Redis lost it; 0: another holder has it. */
const RENEW = `local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
if not v then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 2 end
return 0`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

export const leaseKey = (projectDir: string): string => KEY_PREFIX + createHash('sha256').update(path.resolve(projectDir)).digest('hex').slice(0, 32);

/** Another worker holds the run: who, and how long its lease still runs without a renewal. */
export interface HeldElsewhere {
  heldBy: string;
  leftMs: number;
}

export class RunLeases {
  constructor(
    private readonly redis: Redis,
    /** This worker's id, recorded in the lease. */
    private readonly owner: string,
    readonly ttlMs: number,
  ) {}

  /** Takes the run's lease, or says who holds it. */
  async take(projectDir: string): Promise<HeldLease | HeldElsewhere> {
    const key = leaseKey(projectDir);
    const token = randomUUID();
    const value = JSON.stringify({ token, owner: this.owner });
    const sentAt = performance.now();
    if ((await this.redis.set(key, value, 'PX', this.ttlMs, 'NX')) === 'OK')
      return new HeldLease(this.redis, key, value, token, this.owner, this.ttlMs, sentAt);
    const [held, left] = await Promise.all([this.redis.get(key), this.redis.pttl(key)]);
    return { heldBy: ownerOf(held), leftMs: Math.max(0, left) };
  }
}

export class HeldLease implements RunLease {
  readonly graceMs: number;
  private readonly lostController = new AbortController();
  readonly lost = this.lostController.signal;
  /** performance.now() after which the run must not write: two thirds of the time to live after the last renewal sent. */
  private fenceAt: number;
  private renewing = false;
  private readonly ticker: NodeJS.Timeout;
  private fenceTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    private readonly value: string,
    readonly token: string,
    readonly owner: string,
    private readonly ttlMs: number,
    takenAt: number,
  ) {
    this.graceMs = ttlMs;
    this.fenceAt = takenAt + (ttlMs * 2) / 3;
    this.armFence();
    this.ticker = setInterval(() => void this.renew(), Math.max(50, Math.floor(ttlMs / 3)));
  }

  check = (): string | null => {
    if (this.lost.aborted) return String(this.lost.reason);
    if (performance.now() >= this.fenceAt) {
      this.lose(this.expiredReason());
      return String(this.lost.reason);
    }
    return null;
  };

  /**
   * Gives the lease back (if it is still ours); a Redis out of reach lets it expire instead. Its holder
   * may write no more from now on: another worker may take the run at once.
   */
  async release(): Promise<void> {
    this.lose('its lease was given back');
    const released = this.redis.eval(RELEASE, 1, this.key, this.value).catch(() => undefined);
    await Promise.race([released, new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
  }

  private async renew(): Promise<void> {
    // Never sent past the fence: a renewal that finds the key gone may take it back only while the lease
    // was still valid by this clock (a process waking from a pause stops instead).
    if (this.renewing || this.check() !== null) return;
    this.renewing = true;
    const sentAt = performance.now();
    try {
      const reply = await this.redis.eval(RENEW, 1, this.key, this.value, String(this.ttlMs));
      if (this.lost.aborted) return;
      if (reply === 0) {
        const holder = await this.redis.get(this.key).catch(() => null);
        this.lose(`its lease was taken by ${ownerOf(holder)}`);
      } else if (sentAt + (this.ttlMs * 2) / 3 > this.fenceAt) {
        this.fenceAt = sentAt + (this.ttlMs * 2) / 3;
        this.armFence();
      }
    } catch {
      // Redis out of reach: the next tick tries again; the fence stops the run if none gets through in time.
    } finally {
      this.renewing = false;
    }
  }

  private armFence(): void {
    if (this.fenceTimer) clearTimeout(this.fenceTimer);
    this.fenceTimer = setTimeout(() => this.check(), Math.max(0, this.fenceAt - performance.now()) + 1);
  }

  private expiredReason(): string {
    return `no renewal of its lease reached Redis for ${Math.round((this.ttlMs * 2) / 3)} ms`;
  }

  private lose(reason: string): void {
    if (this.lost.aborted) return;
    this.lostController.abort(reason);
    this.stop();
  }

  private stop(): void {
    clearInterval(this.ticker);
    if (this.fenceTimer) clearTimeout(this.fenceTimer);
  }
}

/** The holder's id from a lease's value; a value that is not a lease of ours is named generically. */
function ownerOf(value: string | null): string {
  try {
    return (JSON.parse(value ?? '') as { owner?: string }).owner ?? 'another worker';
  } catch {
    return 'another worker';
  }
}
