/**
 * ioredis and BullMQ print some findings straight to the console (ioredis' ready check when an ACL
 * user may not run INFO, BullMQ's eviction-policy and version warnings, an error no one listens to),
 * past sopworks' output and its cleaning. sopworks checks the server itself and says what it finds
 * in its own words: the real CLI against a real Redis, with the ACL users an operator would make,
 * asserting on the captured stderr.
 */
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { startRedisWith } from '../helpers/redis-server.ts';
import { runCli } from '../helpers/run-cli.ts';
import { REDIS, requireSystem } from '../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

/** What the libraries print on their own. */
const LIBRARY_LINES = /\[ioredis\]|Skipping the ready check|IMPORTANT!|highly recommended|enableReadyCheck|NOPERM/;

describe("the queue's Redis libraries print nothing of their own", function () {
  this.timeout(60_000);
  let server: Awaited<ReturnType<typeof startRedisWith>>;
  let admin: Redis;
  let cwd: string;

  before(async function () {
    requireSystem(this, REDIS);
    server = await startRedisWith([
      // docs/scaling.md's user (INFO, no CONFIG), and one without INFO either.
      ...['--user', 'limited', 'on', '>pw-limited-0123', '~*', '&*', '+@all', '-@dangerous', '+info'],
      ...['--user', 'noinfo', 'on', '>pw-noinfo-0123', '~*', '&*', '+@all', '-@dangerous'],
    ]);
    admin = new Redis(`redis://127.0.0.1:${server.port}`, { lazyConnect: true, retryStrategy: () => null });
    await admin.connect();
    cwd = await tempDir('sopworks-queue-console-');
  });

  after(async () => {
    admin?.disconnect();
    await server?.stop();
    await removeTempDirs();
  });

  const jobs = (user: string, password: string) =>
    runCli(['jobs'], { cwd, env: { SOPWORKS_REDIS_URL: `redis://${user}:${password}@127.0.0.1:${server.port}` } });

  it('an evicting Redis that hides CONFIG is refused in sopworks’ words, not warned about by BullMQ', async () => {
    await admin.config('SET', 'maxmemory-policy', 'allkeys-lru');
    const result = await jobs('limited', 'pw-limited-0123');
    assert.notEqual(result.code, 0, result.stderr);
    assert.match(result.stderr, /evicts keys \(maxmemory-policy allkeys-lru\)/);
    assert.match(result.stderr, /maxmemory-policy noeviction/, 'with what to do');
    assert.doesNotMatch(result.stderr + result.stdout, LIBRARY_LINES);
    assert.ok(!result.stderr.includes('pw-limited-0123'), 'the password is never shown');
  });

  it('an ACL user that may not run INFO lists the jobs, with no ioredis or BullMQ line', async () => {
    await admin.config('SET', 'maxmemory-policy', 'noeviction');
    const result = await jobs('noinfo', 'pw-noinfo-0123');
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stderr + result.stdout, LIBRARY_LINES);
  });
});
