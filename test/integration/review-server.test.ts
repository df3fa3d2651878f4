/**
 * The web viewer's server against a real run (made by the CLI with the scripted model): its JSON API,
 * live change events, read-only and path safety, and the `serve` command.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { type ReviewServer, startReviewServer } from '../../src/apps/review/index.ts';
import { sopworks } from '../helpers/in-process.ts';
import { BIN, DEMO } from '../helpers/paths.ts';
import { cleanEnv } from '../helpers/run-cli.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const exec = promisify(execFile);

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request with the path sent exactly as written (fetch would normalise `..` away before sending). */
function rawRequest(server: ReviewServer, rawPath: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<RawResponse> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, path: rawPath, method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const getJson = async (server: ReviewServer, rawPath: string): Promise<any> => {
  const res = await rawRequest(server, rawPath);
  assert.equal(res.status, 200, `${rawPath}: ${res.body}`);
  return JSON.parse(res.body);
};

/** Reads a server-sent event stream; `next()` resolves with the next `change` event's data. */
function openEvents(server: ReviewServer, rawPath: string) {
  const { hostname, port } = new URL(server.url);
  const received: string[] = [];
  const waiting: ((data: string) => void)[] = [];
  let buffer = '';
  const req = http.get({ hostname, port, path: rawPath }, (res) => {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = /^event: change\ndata: (.*)$/m.exec(block)?.[1];
        if (data === undefined) continue;
        const resolve = waiting.shift();
        if (resolve) resolve(data);
        else received.push(data);
      }
    });
  });
  req.on('error', () => {});
  return {
    next: (): Promise<string> => (received.length > 0 ? Promise.resolve(received.shift()!) : new Promise((resolve) => waiting.push(resolve))),
    close: () => req.destroy(),
  };
}

describe('sopworks serve: the viewer server', function () {
  this.timeout(60_000);
  let out: string;
  let outside: string;
  let server: ReviewServer;
  const boardLines = async (name: string) =>
    (await fs.readFile(path.join(out, name, '.sopworks', 'board.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));

  before(async () => {
    const root = await tempDir('sopworks-serve-');
    out = path.join(root, 'output');
    outside = path.join(root, 'outside');
    await fs.mkdir(out);
    const made = await sopworks(['run', '--llm', `scripted:${DEMO}`, '--out', out, '--name', 'wordfreq'], { cwd: root });
    assert.equal(made.code, 0, made.stderr);
    // Outside the served folder: a secret, and a run reachable only through a symlink planted inside it.
    await fs.mkdir(path.join(outside, 'run', '.sopworks'), { recursive: true });
    await fs.writeFile(path.join(outside, 'secret.txt'), 'TOP-SECRET\n');
    await fs.writeFile(
      path.join(outside, 'run', '.sopworks', 'board.jsonl'),
      JSON.stringify({
        id: 'msg-000001',
        seq: 1,
        type: 'Requirement',
        from: 'client',
        to: 'all',
        causedBy: [],
        payload: { spec: 'TOP-SECRET', project: 'x' },
        createdAt: '2024-05-01T12:00:00.000Z',
      }) + '\n',
    );
    await fs.symlink(path.join(outside, 'run'), path.join(out, 'escape'));
    await fs.symlink(path.join(outside, 'secret.txt'), path.join(out, 'secret-link'));
    server = await startReviewServer({ dir: out, port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await server?.close();
    await removeTempDirs();
  });

  it('lists the runs in the folder, and only those', async () => {
    const { runs } = await getJson(server, '/api/runs');
    assert.deepEqual(
      runs.map((r: any) => [r.name, r.status.outcome, r.messages]),
      [['wordfreq', 'done', (await boardLines('wordfreq')).length]],
    );
    assert.equal(runs[0].spec, 'a CLI that counts word frequencies in text files');
  });

  it('serves a run: timeline in board order, documents, code with reviews, QA rounds, usage, SOPs, commits, exchanges', async () => {
    const page = await getJson(server, '/api/runs/wordfreq');
    const board = await boardLines('wordfreq');
    assert.deepEqual(
      page.timeline.map((t: any) => [t.id, t.type, t.from, t.to]),
      board.map((m) => [m.id, m.type, m.from, m.to]),
    );
    assert.deepEqual(
      page.documents.flatMap((d: any) => d.files.map((f: any) => f.path)),
      ['docs/prd.md', 'docs/design.md', 'docs/tasks.md'],
    );
    assert.ok(
      page.code.some((f: any) => f.path === 'README.md'),
      'the README is code the Engineer wrote, with its review',
    );
    const design = page.documents.find((d: any) => d.type === 'Design').files[0].html;
    assert.equal((design.match(/<div class="diagram"><pre class="diagram-source">/g) ?? []).length, 2, 'class and sequence diagrams');
    const tokenize = page.code.find((f: any) => f.path === 'src/tokenize.js');
    assert.equal(tokenize.versions.length, 2, 'written, then fixed after the bug report');
    assert.deepEqual(tokenize.versions.at(-1).review, { approved: true, issues: [] });
    assert.equal(page.code.find((f: any) => f.path === 'test/wordfreq.test.js').kind, 'test');
    assert.deepEqual(
      page.tests.map((r: any) => [r.round, r.passed, r.bug !== null]),
      [
        [1, false, true],
        [2, true, false],
      ],
    );
    assert.match(page.tests[0].html, /Test report — round 1: FAILED/);
    assert.deepEqual(
      page.usage.byRole.map((r: any) => r.name),
      ['product-manager', 'architect', 'engineer', 'qa'],
    );
    assert.match(page.usage.charts.byRole, /^<svg class="usage-chart"/);
    assert.deepEqual(
      page.roles.map((r: any) => r.id),
      ['product-manager', 'architect', 'engineer', 'qa'],
    );
    assert.ok(page.roles.every((r: any) => r.diagram.startsWith('stateDiagram-v2')));
    assert.equal(page.commits.length, Number((await exec('git', ['rev-list', '--count', 'HEAD'], { cwd: path.join(out, 'wordfreq') })).stdout.trim()));
    const exchanges = (await fs.readFile(path.join(out, 'wordfreq', '.sopworks', 'exchanges.jsonl'), 'utf8')).trim().split('\n');
    assert.equal(page.exchangeCount, exchanges.length);
    assert.equal(page.timeline[0].payload, undefined, 'payloads are fetched on demand, not with the page');
    const first = await getJson(server, '/api/runs/wordfreq/exchanges?from=0&limit=10');
    assert.equal(first.total, exchanges.length);
    assert.equal(first.items.length, 10);
    assert.equal(first.items[0].messages, undefined, 'prompts are fetched on demand, not with the page');
    assert.deepEqual(
      (await getJson(server, '/api/runs/wordfreq/exchanges?from=20&limit=200')).items.map((x: any) => x.index),
      exchanges.slice(20).map((_, i) => 20 + i),
    );
    assert.deepEqual((await getJson(server, '/api/runs/wordfreq/messages/msg-000001')).payload, board[0].payload);
    assert.deepEqual(page.warnings, []);
  });

  it('serves the coverage matrix: each criterion with the tests citing it, their file and the output lines naming them', async () => {
    const page = await getJson(server, '/api/runs/wordfreq');
    const board = await boardLines('wordfreq');
    const coverage = board.findLast((m) => m.type === 'Coverage');
    const round = board.findLast((m) => m.type === 'TestReport' && (m.payload.kind ?? 'tests') === 'tests' && m.payload.round === coverage.payload.round);
    assert.equal(page.coverage.messageId, coverage.id);
    assert.equal(page.coverage.roundMessageId, round.id, 'the round the matrix was read from, whose output the page links to');
    assert.deepEqual(
      page.coverage.criteria.map((c: any) => [c.id, c.status, c.tests.map((t: any) => t.name)]),
      coverage.payload.criteria.map((c: any) => [c.id, c.status, c.tests.map((t: any) => t.name)]),
    );
    const tests = page.coverage.criteria.flatMap((c: any) => c.tests);
    assert.ok(tests.length > 0);
    const testFiles = page.code.filter((f: any) => f.kind === 'test');
    for (const test of tests) {
      // Its file is one of QA's, and holds it; its output lines are the runner's, and name it.
      const file = testFiles.find((f: any) => f.path === test.file);
      assert.ok(file, `${test.name}: in ${test.file}`);
      assert.ok(file.versions.at(-1).content.includes(test.name.split(' > ').at(-1)), `${test.file} holds ${test.name}`);
      assert.ok(
        test.output.length > 0 && test.output.every((line: string) => round.payload.output.includes(line) && line.includes(test.name.split(' > ').at(-1))),
        test.name,
      );
    }
  });

  it('serves the conversation of each artifact and a search over the run', async () => {
    const { threads } = await getJson(server, '/api/runs/wordfreq/conversations');
    const cli = threads.find((t: any) => t.subject === 'src/cli.js');
    assert.equal(cli.status, 'approved after 1 revision');
    assert.deepEqual(
      cli.entries.map((e: any) => [e.kind, e.who]),
      [
        ['draft', 'engineer'],
        ['review', 'engineer'],
        ['revision', 'engineer'],
        ['review', 'engineer'],
        ['published', 'engineer'],
      ],
    );
    assert.equal(cli.entries[1].issues.length, 3);
    const found = await getJson(server, '/api/runs/wordfreq/search?q=pathToFileURL');
    assert.deepEqual([...new Set(found.hits.map((h: any) => h.kind))].sort(), ['exchange', 'file', 'message']);
    const short = await rawRequest(server, '/api/runs/wordfreq/search?q=a');
    assert.equal(short.status, 400);
    assert.match(JSON.parse(short.body).error, /at least 2 characters/);
  });

  it('serves one model exchange, prompt and reply, on demand', async () => {
    const exchange = await getJson(server, '/api/runs/wordfreq/exchanges/0');
    assert.equal(exchange.role, 'product-manager');
    assert.equal(exchange.action, 'write_prd');
    assert.deepEqual(
      exchange.messages.map((m: any) => m.role),
      ['system', 'user'],
    );
    assert.match(exchange.messages[1].content, /a CLI that counts word frequencies in text files/);
    assert.match(exchange.reply, /"projectName"/);
    assert.equal((await rawRequest(server, '/api/runs/wordfreq/exchanges/100000')).status, 404);
  });

  it('serves the diff of a commit of the run, and no other', async () => {
    const page = await getJson(server, '/api/runs/wordfreq');
    const prdCommit = page.commits.find((c: any) => c.messageId === 'msg-000002');
    const { diff } = await getJson(server, `/api/runs/wordfreq/commits/${prdCommit.hash}`);
    assert.match(diff, /^diff --git a\/docs\/prd\.md b\/docs\/prd\.md/);
    assert.match(diff, /^\+# wordfreq — Product Requirements$/m);
    assert.equal((await rawRequest(server, `/api/runs/wordfreq/commits/${'0'.repeat(40)}`)).status, 404);
    assert.equal((await rawRequest(server, '/api/runs/wordfreq/commits/HEAD')).status, 400);
    assert.equal((await rawRequest(server, '/api/runs/wordfreq/commits/--output=%2Ftmp%2Fx')).status, 400);
  });

  it('keeps every path taken from a URL inside the folder: .., encoded .., absolute paths, symlinks', async () => {
    const attempts = [
      '/api/runs/..',
      '/api/runs/%2e%2e',
      '/api/runs/%2E%2E/outside',
      '/api/runs/..%2f..%2foutside%2fsecret.txt',
      '/api/runs/%2e%2e%2f%2e%2e%2foutside%2frun',
      '/api/runs/wordfreq/../../outside/secret.txt',
      `/api/runs/${encodeURIComponent(path.join(outside, 'run'))}`,
      '/api/runs/%2Fetc%2Fpasswd',
      '//etc/passwd',
      '/api/runs/escape',
      '/api/runs/escape/exchanges/0',
      '/api/runs/escape/events',
      '/api/runs/secret-link',
      '/api/runs/%00',
      '/api/runs/%E0%A4%A',
      '/assets/..%2f..%2f..%2fpackage.json',
      '/assets/%2e%2e/%2e%2e/%2e%2e/package.json',
      '/assets/../../../package.json',
      `/assets/${encodeURIComponent(path.join(outside, 'secret.txt'))}`,
      '/runs/..%2f..%2foutside%2fsecret.txt/x',
    ];
    for (const attempt of attempts) {
      const res = await rawRequest(server, attempt);
      assert.ok([400, 404].includes(res.status), `${attempt} answered ${res.status}: ${res.body.slice(0, 200)}`);
      assert.doesNotMatch(res.body, /TOP-SECRET|"dependencies"|root:x:0/, `${attempt} leaked content`);
    }
    const { runs } = await getJson(server, '/api/runs');
    assert.deepEqual(
      runs.map((r: any) => r.name),
      ['wordfreq'],
      'a symlink out of the folder is not a run of it',
    );
  });

  it('reads with GET only (its one write is a guarded decision), and answers only requests addressed to it', async () => {
    const before = await fs.readFile(path.join(out, 'wordfreq', '.sopworks', 'board.jsonl'), 'utf8');
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const res = await rawRequest(server, '/api/runs/wordfreq', { method });
      assert.equal(res.status, 405, method);
      assert.equal(res.headers.allow, method === 'POST' ? 'GET, HEAD' : 'GET, HEAD, POST');
    }
    assert.equal(await fs.readFile(path.join(out, 'wordfreq', '.sopworks', 'board.jsonl'), 'utf8'), before);
    const rebound = await rawRequest(server, '/api/runs', { headers: { host: 'attacker.example' } });
    assert.equal(rebound.status, 403, 'a DNS-rebinding page cannot read the runs');
    const { port } = new URL(server.url);
    assert.equal((await rawRequest(server, '/api/runs', { headers: { host: `localhost:${port}` } })).status, 200);
  });

  it('serves the page and its scripts from the package, with a policy that allows no other origin', async () => {
    const page = await rawRequest(server, '/runs/wordfreq');
    assert.equal(page.status, 200);
    assert.match(page.body, /<script type="module" src="\/assets\/app\.js"><\/script>/);
    assert.doesNotMatch(page.body, /https?:\/\//, 'no CDN');
    assert.match(String(page.headers['content-security-policy']), /default-src 'none'; script-src 'self'/);
    for (const asset of ['app.js', 'style.css', 'mermaid.min.js']) {
      const res = await rawRequest(server, `/assets/${asset}`, { method: 'HEAD' });
      assert.equal(res.status, 200, asset);
    }
    const app = await rawRequest(server, '/assets/app.js');
    // The SVG namespace is a name, not an address the page loads.
    assert.doesNotMatch(app.body, /https?:\/\/(?!viewer|www\.w3\.org\/2000\/svg['"])/, 'the script loads nothing from elsewhere');
  });

  it('tells an open page when a run changes, and the run list when runs appear', async () => {
    await fs.cp(path.join(out, 'wordfreq'), path.join(out, 'copy'), { recursive: true, verbatimSymlinks: true });
    const events = openEvents(server, '/api/runs/copy/events');
    const folderEvents = openEvents(server, '/api/events');
    try {
      assert.deepEqual(JSON.parse(await events.next()), { version: 1 }, 'the first event asks the page to load');
      await folderEvents.next();
      const board = path.join(out, 'copy', '.sopworks', 'board.jsonl');
      const last = (await boardLines('copy')).at(-1);
      const next = { ...last, id: 'msg-000019', seq: 19, type: 'Outcome', payload: { outcome: 'done', reason: 'seen live' } };
      const before = await getJson(server, '/api/runs/copy');
      await fs.appendFile(board, JSON.stringify(next) + '\n');
      assert.deepEqual(JSON.parse(await events.next()), { version: 2 });
      const page = await getJson(server, '/api/runs/copy');
      assert.equal(page.timeline.at(-1).summary, 'done: seen live');
      // A page that says what it holds gets only what changed: the new message, and the sections it changed.
      const have = Object.entries(before.versions)
        .map(([k, v]) => `${k}.${v}`)
        .join(',');
      const delta = await getJson(
        server,
        `/api/runs/copy?identity=${encodeURIComponent(before.identity)}&timelineFrom=${before.timeline.length}&have=${encodeURIComponent(have)}`,
      );
      assert.deepEqual(
        delta.timeline.map((t: any) => t.id),
        ['msg-000019'],
      );
      assert.equal(delta.timelineTotal, before.timeline.length + 1);
      assert.equal(delta.documents, undefined, 'unchanged sections are not sent again');
      assert.equal(delta.code, undefined);

      await fs.cp(path.join(out, 'copy'), path.join(out, 'copy-2'), { recursive: true, verbatimSymlinks: true });
      await folderEvents.next();
      const { runs } = await getJson(server, '/api/runs');
      assert.deepEqual(runs.map((r: any) => r.name).sort(), ['copy', 'copy-2', 'wordfreq']);
    } finally {
      events.close();
      folderEvents.close();
      await fs.rm(path.join(out, 'copy'), { recursive: true, force: true });
      await fs.rm(path.join(out, 'copy-2'), { recursive: true, force: true });
    }
  });

  it('serves one run when given the folder of a run', async () => {
    const single = await startReviewServer({ dir: path.join(out, 'wordfreq'), port: 0, host: '127.0.0.1' });
    try {
      const { runs } = await getJson(single, '/api/runs');
      assert.deepEqual(
        runs.map((r: any) => r.name),
        ['wordfreq'],
      );
      assert.equal((await getJson(single, '/api/runs/wordfreq')).timeline.length, (await boardLines('wordfreq')).length);
      assert.equal((await rawRequest(single, '/api/runs/output')).status, 404);
      assert.equal((await rawRequest(single, '/api/runs/..%2fwordfreq')).status, 404);
    } finally {
      await single.close();
    }
  });

  it('`sopworks serve` prints its URL, serves until stopped, and refuses a folder that does not exist', async () => {
    const child = spawn(process.execPath, [BIN, 'serve', out, '--port', '0'], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let stdout = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.setEncoding('utf8');
        child.stdout.on('data', (chunk: string) => {
          stdout += chunk;
          const found = /(http:\/\/127\.0\.0\.1:\d+\/)\?token=[\w-]{32}\n/.exec(stdout);
          if (found) resolve(found[1]!);
        });
        child.on('exit', (code) => reject(new Error(`serve exited (${code}) before printing its URL: ${stdout}`)));
      });
      const res = await fetch(`${url}api/runs`);
      assert.equal(res.status, 200);
      assert.deepEqual(
        ((await res.json()) as any).runs.map((r: any) => r.name),
        ['wordfreq'],
      );
    } finally {
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      assert.equal(await exited, 0, 'stops cleanly on SIGTERM');
    }
    const [missing, badPort] = await Promise.all([
      sopworks(['serve', path.join(out, 'nope'), '--port', '0'], { cwd: out }),
      sopworks(['serve', out, '--port', 'eighty'], { cwd: out }),
    ]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /is not a folder/);
    assert.equal(badPort.code, 2);
    assert.match(badPort.stderr, /--port: a port is a number/);
  });
});
