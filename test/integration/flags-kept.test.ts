/**
 * Every flag kept in run.json holds however the run is continued (issue 38, Must 2) — one table, flag ×
 * way of continuing. Each cell starts the demo with one flag (and what makes it stop where a person can
 * continue it), continues it that way without the flag given again, and asserts on what the run did
 * afterwards and on run.json still naming the flag:
 * - flags: --until design, a gate (--approve design), a token budget (--max-tokens), --engineers 2;
 * - ways: `sopworks resume` after a Ctrl-C, the page's decision (`sopworks serve`: POST …/decision, the
 *   server starting `sopworks resume`), the page's answers (POST …/answers), `sopworks answer` then resume,
 *   and a queued worker: the flag given to `sopworks submit`, the worker that started the run stopped
 *   (SIGTERM: it hands the run back, interrupted) and another worker resuming it from its folder (a real
 *   Redis and `sopworks worker` processes; skipped loudly without redis-server). The four flags' runs go
 *   through the queue together, in one pass of two workers; each cell asserts on its own run.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Queue } from 'bullmq';
import { jobIdFor, QUEUE_NAME } from '../../src/apps/queue/index.ts';
import { type ReviewServer, startReviewServer } from '../../src/apps/review/index.ts';
import { sopworks } from '../helpers/in-process.ts';
import { BIN, DEMO, ROOT } from '../helpers/paths.ts';
import { startWorker, stopWorker, TEST_QUEUE_SECRET, type WorkerProcess, waitUntil } from '../helpers/queue-workers.ts';
import { startRedis, type TestRedis } from '../helpers/redis-server.ts';
import { type CliResult, cleanEnv } from '../helpers/run-cli.ts';
import { REDIS, requireSystem, type SystemRequirement } from '../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const TOKEN = 'flags-kept-token-0123456789abcdef';

interface RunJson {
  outcome: string;
  reason: string;
  until: string | null;
  engineers: number;
  budget: { tokens: number | null };
  approvals: { gates: string[] };
  usage: { total: { promptTokens: number; completionTokens: number } };
}

const runJson = async (project: string): Promise<RunJson> => JSON.parse(await fs.readFile(path.join(project, '.sopworks', 'run.json'), 'utf8'));
const jsonLines = async <T>(project: string, file: string): Promise<T[]> =>
  (await fs.readFile(path.join(project, '.sopworks', file), 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as T);
const boardTypes = async (project: string) => (await jsonLines<{ type: string }>(project, 'board.jsonl')).map((m) => m.type);

/** A flag, given at the start only, and what shows it held after the run was continued. */
interface Flag {
  name: string;
  args: string[];
  gates: string[];
  held(project: string): Promise<void>;
}

const BUDGET = 20_000;

const FLAGS: Flag[] = [
  {
    name: '--until design',
    args: ['--until', 'design'],
    gates: [],
    async held(project) {
      const record = await runJson(project);
      assert.equal(record.outcome, 'paused', record.reason);
      assert.equal(record.until, 'design', 'run.json still names it');
      const types = await boardTypes(project);
      assert.ok(types.includes('Design') && !types.includes('TaskGraph'), `stopped after the design, nothing after it begun: ${types.join(' ')}`);
    },
  },
  {
    name: 'a gate (--approve design)',
    args: [],
    gates: ['design'],
    async held(project) {
      const record = await runJson(project);
      assert.equal(record.outcome, 'awaiting-approval', record.reason);
      assert.match(record.reason, /approve design/);
      assert.ok(record.approvals.gates.includes('design'), 'run.json still names it');
      assert.ok(!(await boardTypes(project)).includes('TaskGraph'), 'nothing after the design begun');
    },
  },
  {
    name: `a token budget (--max-tokens ${BUDGET})`,
    args: ['--max-tokens', String(BUDGET)],
    gates: [],
    async held(project) {
      const record = await runJson(project);
      assert.equal(record.outcome, 'budget-exhausted', record.reason);
      assert.equal(record.budget.tokens, BUDGET, 'run.json still names it');
      const used = record.usage.total.promptTokens + record.usage.total.completionTokens;
      assert.ok(used <= BUDGET, `${used} tokens used, within ${BUDGET}`);
    },
  },
  {
    name: '--engineers 2',
    args: ['--engineers', '2'],
    gates: [],
    async held(project) {
      const record = await runJson(project);
      assert.equal(record.outcome, 'done', record.reason);
      assert.equal(record.engineers, 2, 'run.json still names it');
      // Each Engineer is introduced by its own name in its prompts (the second one numbered).
      const engineers = new Set<string>();
      for (const exchange of await jsonLines<{ role: string; messages: { content: string }[] }>(project, 'exchanges.jsonl'))
        if (exchange.role === 'engineer') engineers.add(/^You are ([^,.]+)/m.exec(exchange.messages[1]!.content)?.[1] ?? '?');
      assert.equal(engineers.size, 2, `the files were shared by two Engineers: ${[...engineers].join(', ')}`);
    },
  },
];

const cellName = (f: number, w: number) => `flag${f}-way${w}`;

/** What the queued way's one pass saw, for each flag's cell to assert on (its runs named by cellName). */
interface QueuedPass {
  submitted: Map<string, CliResult>;
  /** The first worker's lines, and each run's outcome once it had stopped. */
  firstLines: string;
  afterFirst: Map<string, string>;
  secondLines: string;
}

function request(server: ReviewServer, route: string, body?: unknown): Promise<{ status: number; body: any }> {
  const { hostname, port, origin } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const headers = body === undefined ? {} : { origin, 'content-type': 'application/json', 'x-sopworks-token': TOKEN };
    const req = http.request({ hostname, port, path: route, method: body === undefined ? 'GET' : 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

describe('every flag kept in run.json holds however the run is continued', function () {
  this.timeout(600_000);
  let root: string;
  let out: string;
  let server: ReviewServer;
  /** Started by the first queued cell: the queue's Redis, what the test reads of its jobs, and the pass it serves. */
  let redis: TestRedis | null = null;
  let queue: Queue | null = null;
  let queued: Promise<QueuedPass> | null = null;
  const workers: WorkerProcess[] = [];

  before(async () => {
    root = await tempDir('sopworks-flags-kept-');
    out = path.join(root, 'output');
    await fs.mkdir(out);
    server = await startReviewServer({ dir: out, port: 0, host: '127.0.0.1', token: TOKEN, launch: { cwd: root, env: cleanEnv() } });
  });
  after(async () => {
    await server?.close();
    await Promise.all(workers.map(stopWorker));
    await queue?.close();
    await redis?.stop();
    await removeTempDirs();
  });

  /** Starts the demo in this process with --json; its exit code and the questions its summary carries. */
  async function start(name: string, args: string[]): Promise<{ code: number | null; questions: { role: string; round: number; questions: string[] }[] }> {
    const run = await sopworks(['run', '--llm', `scripted:${DEMO}`, '--out', out, '--name', name, '--json', ...args], { cwd: root });
    const summary = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { questions: { role: string; round: number; questions: string[] }[] | null };
    return { code: run.code, questions: summary.questions ?? [] };
  }

  /** What the page's write started (`sopworks resume`), once it has ended. */
  async function launchEnded(name: string): Promise<{ exitCode: number; reason: string }> {
    for (;;) {
      const { launch } = (await request(server, `/api/runs/${name}`)).body;
      if (launch?.state === 'ended') return launch;
      await sleep(100);
    }
  }

  const gatesOf = (flag: Flag, more: string[]) => {
    const gates = [...more, ...flag.gates];
    return gates.length > 0 ? ['--approve', gates.join(',')] : [];
  };

  /** A way of continuing: starts the run so that it stops where that way continues it, then continues it. */
  const WAYS: { name: string; requires?: SystemRequirement[]; continue(flag: Flag, name: string): Promise<void> }[] = [
    {
      name: '`sopworks resume` after a Ctrl-C',
      async continue(flag, name) {
        const args = ['run', '--llm', `scripted:${DEMO}`, '--out', out, '--name', name, ...flag.args, ...gatesOf(flag, [])];
        const child = spawn(process.execPath, [BIN, ...args], {
          cwd: root,
          env: cleanEnv({ SOPWORKS_SCRIPTED_LATENCY_MS: '50' }),
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
        // The first line comes once the run has begun (its stop signals listening): Ctrl-C there.
        child.stdout.once('data', () => child.kill('SIGINT'));
        assert.equal(await closed, 130, 'stopped by the Ctrl-C');
        assert.equal((await runJson(path.join(out, name))).outcome, 'interrupted');
        const resumed = await sopworks(['resume', path.join(out, name)], { cwd: root });
        assert.notEqual(resumed.code, 2, resumed.stderr);
      },
    },
    {
      name: "the page's decision",
      async continue(flag, name) {
        const started = await start(name, [...flag.args, ...gatesOf(flag, ['prd'])]);
        assert.equal(started.code, 4, 'stopped for a person to approve the PRD');
        const decided = await request(server, `/api/runs/${name}/decision`, { approved: true, feedback: null });
        assert.equal(decided.status, 200, JSON.stringify(decided.body));
        assert.equal(decided.body.launch.command, 'resume');
        assert.notEqual((await launchEnded(name)).exitCode, 2);
      },
    },
    {
      name: "the page's answers",
      async continue(flag, name) {
        const started = await start(name, [...flag.args, ...gatesOf(flag, []), '--clarify']);
        assert.equal(started.code, 4, 'stopped for the answers');
        const [asked] = started.questions;
        assert.ok(asked, 'its summary carries the questions');
        const answered = await request(server, `/api/runs/${name}/answers`, { role: asked.role, round: asked.round, answers: asked.questions.map(() => '') });
        assert.equal(answered.status, 200, JSON.stringify(answered.body));
        assert.equal(answered.body.launch.command, 'resume');
        assert.notEqual((await launchEnded(name)).exitCode, 2);
      },
    },
    {
      name: '`sopworks answer` then `sopworks resume`',
      async continue(flag, name) {
        const started = await start(name, [...flag.args, ...gatesOf(flag, []), '--clarify']);
        assert.equal(started.code, 4, 'stopped for the answers');
        const project = path.join(out, name);
        const answered = await sopworks(['answer', project, ...started.questions[0]!.questions.map(() => '')], { cwd: root });
        assert.equal(answered.code, 0, answered.stderr);
        const resumed = await sopworks(['resume', project], { cwd: root });
        assert.notEqual(resumed.code, 2, resumed.stderr);
      },
    },
    {
      name: 'a queued worker (given to `sopworks submit`, its first worker stopped, another resuming it)',
      requires: [REDIS],
      async continue(_flag, name) {
        // One pass serves the four flags' cells (each asserts on its own run): workers and a Redis per cell
        // cost four minutes of the suite's time.
        queued ??= queuedPass();
        const pass = await queued;
        const submitted = pass.submitted.get(name)!;
        assert.equal(submitted.code, 0, submitted.stdout + submitted.stderr);
        assert.match(pass.firstLines, new RegExp(`${name}: handed back `), 'the first worker handed the run back');
        assert.equal(pass.afterFirst.get(name), 'interrupted', 'stopped before its point: the other worker continues it');
        assert.match(pass.secondLines, new RegExp(`${name}: resuming `), 'the second worker resumed the run from its folder');
      },
    },
  ];
  const QUEUED = WAYS.length - 1;

  /**
   * The queued way for every flag at once: the four runs submitted (each flag given to `sopworks submit`
   * only), one worker taking all four, stopped (SIGTERM) once all have begun, and another worker resuming
   * them from their folders until each job has ended.
   */
  async function queuedPass(): Promise<QueuedPass> {
    redis = await startRedis();
    queue = new Queue(QUEUE_NAME, { connection: { host: '127.0.0.1', port: redis.port } });
    const env = { SOPWORKS_REDIS_URL: redis.url, SOPWORKS_QUEUE_SECRET: TEST_QUEUE_SECRET };
    const submitted = new Map<string, CliResult>();
    for (const [f, flag] of FLAGS.entries()) {
      const name = cellName(f, QUEUED);
      submitted.set(
        name,
        await sopworks(['submit', '--llm', `scripted:${DEMO}`, '--out', out, '--name', name, ...flag.args, ...gatesOf(flag, [])], { cwd: ROOT, env }),
      );
    }
    const names = [...submitted].filter(([, result]) => result.code === 0).map(([name]) => name);
    const concurrency = ['--concurrency', String(names.length)];
    // Slow replies: the first worker is stopped once every run has begun, long before any flag's point (five
    // replies at the earliest), however unevenly the four began.
    const first = startWorker(redis.url, concurrency, { env: { SOPWORKS_SCRIPTED_LATENCY_MS: '2000' } });
    workers.push(first);
    const begun = async (name: string) => (await runJson(path.join(out, name)).catch(() => null)) !== null;
    await waitUntil(
      'every run has begun',
      async () => (await Promise.all(names.map(begun))).every(Boolean),
      180_000,
      () => first.lines.join('\n'),
    );
    first.child.kill('SIGTERM');
    await first.exited;
    const afterFirst = new Map<string, string>();
    for (const name of names) afterFirst.set(name, (await runJson(path.join(out, name))).outcome);
    const second = startWorker(redis.url, concurrency);
    workers.push(second);
    const jobs = await Promise.all(names.map(async (name) => (await queue!.getJob(jobIdFor({ out, name })))!));
    const ended = async () => (await Promise.all(jobs.map((job) => job.getState()))).every((state) => ['completed', 'failed'].includes(state));
    await waitUntil('every job has ended', ended, 300_000, () => second.lines.join('\n'));
    await stopWorker(second);
    return { submitted, firstLines: first.lines.join('\n'), afterFirst, secondLines: second.lines.join('\n') };
  }

  FLAGS.forEach((flag, f) => {
    WAYS.forEach((way, w) => {
      it(`${flag.name} holds through ${way.name}`, async function () {
        requireSystem(this, ...(way.requires ?? []));
        const name = cellName(f, w);
        await way.continue(flag, name);
        await flag.held(path.join(out, name));
      });
    });
  });
});
