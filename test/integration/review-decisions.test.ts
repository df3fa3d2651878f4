/**
 * Decisions through the viewer's server: a run stopped awaiting approval is approved or rejected with a
 * POST that carries the token, from a page of the server — recorded on the board exactly as
 * `sopworks approve` records it — and every request without what it needs is refused, the board untouched.
 * Answers to a role's questions (`--clarify`) are refused alike when they lack what they need.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { type ReviewServer, startReviewServer } from '../../src/apps/review/index.ts';
import { sopworks } from '../helpers/in-process.ts';
import { DEMO, ROOT } from '../helpers/paths.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function request(server: ReviewServer, rawPath: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, path: rawPath, method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const TOKEN = 'test-token-0123456789abcdef';

describe('sopworks serve: deciding on a run from the browser', function () {
  this.timeout(60_000);
  let root: string;
  let out: string;
  let server: ReviewServer;
  let origin: string;
  const board = (name: string) => fs.readFile(path.join(out, name, '.sopworks', 'board.jsonl'), 'utf8');
  /** A POST as the page sends it; each refusal test takes one thing away or changes it. */
  const post = (name: string, body: unknown, headers: Record<string, string> = {}, method = 'POST') =>
    request(server, `/api/runs/${name}/decision`, {
      method,
      headers: { origin, 'content-type': 'application/json', 'x-sopworks-token': TOKEN, ...headers },
      body: method === 'GET' ? undefined : JSON.stringify(body),
    });

  before(async () => {
    root = await tempDir('sopworks-decide-');
    out = path.join(root, 'output');
    const gated = (name: string) => sopworks(['run', '--llm', `scripted:${DEMO}`, '--out', out, '--name', name, '--approve', 'prd'], { cwd: root });
    const scenario = path.join(ROOT, 'test', 'fixtures', 'clarify', 'wordfreq-clarify.yaml');
    const asking = sopworks(['run', '--llm', `scripted:${scenario}`, '--out', out, '--name', 'asking', '--clarify', '--until', 'prd'], { cwd: root });
    for (const made of await Promise.all([gated('by-page'), gated('by-cli'), gated('refused'), asking])) assert.equal(made.code, 4, made.stderr);
    server = await startReviewServer({ dir: out, port: 0, host: '127.0.0.1', token: TOKEN });
    origin = server.url.replace(/\/$/, '');
  });
  after(async () => {
    await server?.close();
    await removeTempDirs();
  });

  it('shows what a stopped run waits for, and records a decision on the board as `sopworks approve` does', async () => {
    const page = JSON.parse((await request(server, '/api/runs/by-page')).body);
    assert.equal(page.status.outcome, 'awaiting-approval');
    assert.deepEqual(
      page.pending.map((p: any) => [p.role, p.gate, p.key, p.round]),
      [['product-manager', 'prd', null, 0]],
    );
    assert.match(page.pending[0].html, /<h1[^>]*>wordfreq — Product Requirements<\/h1>/);

    const answer = await post('by-page', { approved: false, feedback: 'Add a --json output mode.' });
    assert.equal(answer.status, 200, answer.body);
    assert.deepEqual(
      JSON.parse(answer.body).decided.map((d: any) => d.what),
      ['the prd of product-manager'],
    );
    const cli = await sopworks(['approve', path.join(out, 'by-cli'), '--reject', 'Add a --json output mode.'], { cwd: root });
    assert.equal(cli.code, 0, cli.stderr);
    const decision = async (name: string) => {
      const { id, seq, createdAt, ...rest } = JSON.parse(
        (await board(name))
          .trim()
          .split('\n')
          .find((line) => JSON.parse(line).type === 'Approval')!,
      );
      return rest;
    };
    assert.deepEqual(await decision('by-page'), await decision('by-cli'), 'the same record as a terminal decision');
    assert.deepEqual((await decision('by-page')).payload, {
      role: 'product-manager',
      gate: 'prd',
      key: null,
      round: 0,
      approved: false,
      feedback: 'Add a --json output mode.',
    });
    // The page's decision continued the run (`sopworks resume`, started by the server); the terminal's did not.
    const started = JSON.parse(answer.body).launch;
    assert.equal(started.command, 'resume');
    assert.equal(started.projectDir, path.join(out, 'by-page'));
    const ended = async () => {
      for (;;) {
        const launch = JSON.parse((await request(server, '/api/runs/by-page')).body).launch;
        if (launch.state === 'ended') return launch;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    // The resumed run revises the PRD with the feedback, and stops again for the person to decide on the revision.
    assert.match((await ended()).reason, /waiting for a person to approve prd from product-manager/);
    const revised = JSON.parse((await request(server, '/api/runs/by-page')).body);
    assert.deepEqual(
      revised.pending.map((p: any) => [p.role, p.gate, p.round]),
      [['product-manager', 'prd', 1]],
      'the revision waits, a round later',
    );
    const again = await post('by-cli', { approved: true, feedback: null });
    assert.equal(again.status, 409);
    assert.match(JSON.parse(again.body).error, /Nothing in .* is waiting for approval/);
  });

  it('exchanges the printed token for a cookie that lets the page decide', async () => {
    assert.equal(server.tokenUrl, `${server.url}?token=${TOKEN}`);
    const swap = await request(server, `/runs/refused?token=${TOKEN}`);
    assert.equal(swap.status, 303);
    assert.equal(swap.headers.location, '/runs/refused', 'the token leaves the address bar');
    const cookie = String(swap.headers['set-cookie']);
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Strict/);
    const withCookie = cookie.split(';')[0]!;
    assert.deepEqual(JSON.parse((await request(server, '/api/session', { headers: { cookie: withCookie } })).body), { canDecide: true });
    assert.deepEqual(JSON.parse((await request(server, '/api/session')).body), { canDecide: false });
    assert.equal((await request(server, '/runs/refused?token=wrong')).status, 403);
  });

  describe('refuses, leaving the board as it was,', () => {
    let before: string;
    beforeEach(async () => {
      before = await board('refused');
    });
    afterEach(async () => {
      assert.equal(await board('refused'), before, 'nothing was recorded');
      assert.equal(JSON.parse((await request(server, '/api/runs/refused')).body).pending.length, 1, 'the request still waits');
    });
    const refused = (answer: Answer, status: number, reason: RegExp) => {
      assert.equal(answer.status, status, answer.body);
      assert.match(JSON.parse(answer.body).error, reason);
    };

    it('a decision without the token', async () => {
      refused(await post('refused', { approved: true }, { 'x-sopworks-token': '' }), 403, /needs the token/);
    });
    it('a decision with a wrong token', async () => {
      refused(await post('refused', { approved: true }, { 'x-sopworks-token': 'not-the-token-0123456789ab' }), 403, /needs the token/);
    });
    it('a decision with a token in a cookie of another server', async () => {
      refused(await post('refused', { approved: true }, { 'x-sopworks-token': '', cookie: `sopworks-token-1=${TOKEN}` }), 403, /needs the token/);
    });
    it('a decision from a page of another origin', async () => {
      refused(await post('refused', { approved: true }, { origin: 'http://attacker.example' }), 403, /must come from a page of this viewer/);
    });
    it('a decision without an Origin', async () => {
      const { hostname, port } = new URL(server.url);
      const answer = await new Promise<Answer>((resolve, reject) => {
        const req = http.request(
          { hostname, port, path: '/api/runs/refused/decision', method: 'POST', headers: { 'content-type': 'application/json', 'x-sopworks-token': TOKEN } },
          (res) => {
            let body = '';
            res.on('data', (c) => (body += c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
          },
        );
        req.on('error', reject);
        req.end(JSON.stringify({ approved: true }));
      });
      refused(answer, 403, /has no Origin/);
    });
    it('a decision addressed to another host name (DNS rebinding)', async () => {
      refused(await post('refused', { approved: true }, { host: 'attacker.example', origin: 'http://attacker.example' }), 403, /must be addressed to/);
    });
    it('a decision sent with GET, or with another method', async () => {
      refused(await post('refused', { approved: true }, {}, 'GET'), 405, /POST/);
      refused(await post('refused', { approved: true }, {}, 'PUT'), 405, /not allowed/);
    });
    it('a decision that is not JSON (a form another site could post)', async () => {
      refused(await post('refused', { approved: true }, { 'content-type': 'application/x-www-form-urlencoded' }), 415, /JSON/);
    });
    it('a rejection without feedback, and a body that is not a decision', async () => {
      refused(await post('refused', { approved: false, feedback: '  ' }), 400, /a rejection needs feedback/);
      refused(await post('refused', { approved: 'yes' }), 400, /Not a decision/);
    });
    /** A POST to another write of the run, as the page sends it; `headers` take something away. */
    const write = (route: string, body: unknown, headers: Record<string, string> = {}) =>
      request(server, `/api/runs/refused/${route}`, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/json', 'x-sopworks-token': TOKEN, ...headers },
        body: JSON.stringify(body),
      });
    for (const [route, body] of [
      ['resume', { hint: null }],
      ['change', { request: 'add a --json flag' }],
    ] as const) {
      it(`a ${route} without the token, from another origin, or addressed to another host name`, async () => {
        refused(await write(route, body, { 'x-sopworks-token': '' }), 403, /needs the token/);
        refused(await write(route, body, { origin: 'http://attacker.example' }), 403, /must come from a page of this viewer/);
        refused(await write(route, body, { host: 'attacker.example', origin: 'http://attacker.example' }), 403, /must be addressed to/);
        refused(await write(route, body, { 'content-type': 'text/plain' }), 415, /JSON/);
      });
    }
    it('a resume of a run waiting for a decision, and a change of a run that has not finished', async () => {
      refused(await write('resume', { hint: null }), 409, /waits for your decision first/);
      refused(await write('change', { request: 'add a --json flag' }), 409, /has not finished \(waiting for you\)/);
    });
    it('a change without a request, and bodies with fields they do not take', async () => {
      refused(await write('change', { request: '   ' }), 400, /say what to change/);
      refused(await write('change', { request: 'x', llm: 'openai' }), 400, /Not a change request/);
      refused(await write('resume', { hint: null, model: 'gpt-4o' }), 400, /Not a request to continue/);
    });
    it('a write anywhere else', async () => {
      refused(
        await request(server, '/api/runs/refused', {
          method: 'POST',
          headers: { origin, 'content-type': 'application/json', 'x-sopworks-token': TOKEN },
          body: '{"approved":true}',
        }),
        405,
        /only writes are POST \/api\/runs\/<name>\/decision, …\/answers, …\/resume and …\/change/,
      );
    });
  });
  describe('refuses answers, leaving the board and the open questions as they were,', () => {
    let before: string;
    beforeEach(async () => {
      before = await board('asking');
    });
    afterEach(async () => {
      assert.equal(await board('asking'), before, 'nothing was recorded');
      const page = JSON.parse((await request(server, '/api/runs/asking')).body);
      assert.deepEqual(
        page.questions.map((q: any) => [q.role, q.round, q.questions.length]),
        [['product-manager', 0, 2]],
        'the questions still wait',
      );
    });
    const answers = (body: unknown, headers: Record<string, string> = {}, name = 'asking') =>
      request(server, `/api/runs/${name}/answers`, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/json', 'x-sopworks-token': TOKEN, ...headers },
        body: JSON.stringify(body),
      });
    const given = { role: 'product-manager', round: 0, answers: ['yes', ''] };
    const refused = (answer: Answer, status: number, reason: RegExp) => {
      assert.equal(answer.status, status, answer.body);
      assert.match(JSON.parse(answer.body).error, reason);
    };

    it('without the token, from another origin, addressed to another host name, or not as JSON', async () => {
      refused(await answers(given, { 'x-sopworks-token': '' }), 403, /needs the token/);
      refused(await answers(given, { 'x-sopworks-token': 'not-the-token-0123456789ab' }), 403, /needs the token/);
      refused(await answers(given, { origin: 'http://attacker.example' }), 403, /must come from a page of this viewer/);
      refused(await answers(given, { host: 'attacker.example', origin: 'http://attacker.example' }), 403, /must be addressed to/);
      refused(await answers(given, { 'content-type': 'application/x-www-form-urlencoded' }), 415, /JSON/);
    });
    it('answers that are not one per question, to questions nobody asked, or with fields it does not take', async () => {
      refused(await answers({ ...given, answers: ['only one'] }), 409, /asked 2 question\(s\), and 1 answer\(s\) came/);
      refused(await answers({ ...given, round: 1 }), 409, /waits for answers to product-manager's questions \(round 2\)/);
      refused(await answers({ ...given, role: 'architect' }), 409, /waits for answers to architect's questions/);
      refused(await answers({ ...given, answers: [] }), 400, /Not answers/);
      refused(await answers({ ...given, answers: [1, 2] }), 400, /Not answers/);
      refused(await answers({ ...given, answers: ['x'.repeat(4001), ''] }), 400, /Not answers/);
      refused(await answers({ ...given, llm: 'openai' }), 400, /Not answers/);
      refused(await answers(given, {}, 'refused'), 409, /waits for answers to product-manager's questions/);
    });
    it('a resume of a run waiting for answers', async () => {
      refused(
        await request(server, '/api/runs/asking/resume', {
          method: 'POST',
          headers: { origin, 'content-type': 'application/json', 'x-sopworks-token': TOKEN },
          body: JSON.stringify({ hint: null }),
        }),
        409,
        /waits for your answers first/,
      );
    });
  });
});
