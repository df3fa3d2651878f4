/**
 * Red team, the workbench (`sopworks serve`): a web page elsewhere, or anyone on the network, tries to
 * read the runs — every prompt, the spec — or to decide on one. Through DNS rebinding (a page whose own
 * name resolves to this machine, in a real browser), with a Host that is not the viewer's, with none,
 * with a lookalike of an allowed name, with a wrong token, with the cookie but another Host, with the
 * event stream, from another origin; and, bound beyond the loopback, without the token at all. After
 * each: the secret spec is in no answer and the run's board is byte-identical.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { type ReviewServer, startReviewServer } from '../../src/apps/review/index.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { CHROMIUM, requireSystem } from '../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const SECRET = `TOP-SECRET-SPEC-${process.pid}`;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One raw request, with exactly the headers given (Host included, or none at all with HTTP/1.0). */
function request(
  port: number,
  target: string,
  headers: Record<string, string>,
  options: { method?: string; body?: string; address?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, options.address ?? '127.0.0.1', () => {
      const lines = [`${options.method ?? 'GET'} ${target} HTTP/1.${'host' in headers ? 1 : 0}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
      if (options.body !== undefined) lines.push(`content-length: ${Buffer.byteLength(options.body)}`);
      socket.write(`${lines.join('\r\n')}\r\nconnection: close\r\n\r\n${options.body ?? ''}`);
    });
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const headersOut: http.IncomingHttpHeaders = {};
      for (const line of headerLines) headersOut[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
      resolve({ status: Number(statusLine.split(' ')[1]), headers: headersOut, body: rest.join('\r\n\r\n') });
    });
  });
}

/** A finished run whose spec is the secret an attacker wants. */
async function secretRun(dir: string): Promise<void> {
  await fs.mkdir(path.join(dir, '.sopworks'), { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd: dir });
  const at = '2026-01-01T00:00:00.000Z';
  await fs.writeFile(
    path.join(dir, '.sopworks', 'board.jsonl'),
    `${JSON.stringify({ id: 'msg-000001', seq: 1, type: 'Requirement', from: 'client', to: 'all', causedBy: [], payload: { spec: SECRET, project: 'secret' }, createdAt: at })}\n`,
  );
  await fs.writeFile(
    path.join(dir, '.sopworks', 'run.json'),
    JSON.stringify({ spec: SECRET, project: 'secret', llm: { kind: 'openai', model: 'm' }, model: 'm', sops: '/s', roles: '/r', startedAt: at }),
  );
}

const refusedWithoutSecret = (answer: Answer, status: number) => {
  assert.equal(answer.status, status, answer.body);
  assert.ok(!answer.body.includes(SECRET), 'the secret is in no refused answer');
};

describe('red team: the workbench answers only its own name', function () {
  this.timeout(60_000);
  let runs: string;
  let board: string;
  let boardBytes: string;
  let wild: ReviewServer;
  let loop: ReviewServer;
  const portOf = (server: ReviewServer) => Number(new URL(server.url).port);

  before(async () => {
    runs = await tempDir('sopworks-workbench-');
    await secretRun(path.join(runs, 'secret'));
    board = path.join(runs, 'secret', '.sopworks', 'board.jsonl');
    boardBytes = await fs.readFile(board, 'utf8');
    [wild, loop] = await Promise.all([
      startReviewServer({ dir: runs, port: 0, host: '0.0.0.0' }),
      startReviewServer({ dir: runs, port: 0, host: '127.0.0.1', allowHosts: ['viewer.example'] }),
    ]);
  });
  afterEach(async () => assert.equal(await fs.readFile(board, 'utf8'), boardBytes, "the run's board is byte-identical"));
  after(async () => {
    await Promise.all([wild?.close(), loop?.close()]);
    await removeTempDirs();
  });

  it('0.0.0.0: a Host that is not its own (what DNS rebinding sends) is refused, token or not', async () => {
    const port = portOf(wild);
    refusedWithoutSecret(await request(port, '/api/runs/secret', { host: `attacker.example:${port}` }), 403);
    refusedWithoutSecret(await request(port, '/api/runs/secret', { host: `attacker.example:${port}`, 'x-sopworks-token': wild.token }), 403);
  });

  it('0.0.0.0: a request with no Host at all (HTTP/1.0) is refused', async () => {
    refusedWithoutSecret(await request(portOf(wild), '/api/runs', {}), 403);
  });

  it('0.0.0.0: its own name without the token reads nothing — runs, a run, the page, the event stream', async () => {
    const port = portOf(wild);
    for (const target of ['/api/runs', '/api/runs/secret', '/', '/runs/secret', '/api/events', '/api/runs/secret/exchanges', '/assets/app.js'])
      refusedWithoutSecret(await request(port, target, { host: `127.0.0.1:${port}` }), 401);
  });

  it('0.0.0.0: a wrong token is not exchanged for a cookie', async () => {
    const port = portOf(wild);
    const answer = await request(port, '/?token=not-the-token', { host: `localhost:${port}` });
    refusedWithoutSecret(answer, 403);
    assert.equal(answer.headers['set-cookie'], undefined);
  });

  it("0.0.0.0: the token's cookie does not carry a request addressed to another name", async () => {
    const port = portOf(wild);
    const exchanged = await request(port, `/?token=${wild.token}`, { host: `127.0.0.1:${port}` });
    assert.equal(exchanged.status, 303);
    const cookie = String(exchanged.headers['set-cookie']).split(';')[0]!;
    const own = await request(port, '/api/runs/secret', { host: `127.0.0.1:${port}`, cookie });
    assert.equal(own.status, 200, 'the positive control: its own name with the cookie reads');
    assert.ok(own.body.includes(SECRET));
    refusedWithoutSecret(await request(port, '/api/runs/secret', { host: `rebind.attacker.example:${port}`, cookie }), 403);
  });

  it('0.0.0.0: the event stream under another name is refused before it opens', async () => {
    const port = portOf(wild);
    refusedWithoutSecret(await request(port, '/api/runs/secret/events', { host: `evil.test:${port}`, 'x-sopworks-token': wild.token }), 403);
  });

  it('127.0.0.1: its own address on another port, and lookalikes of an allowed name, are refused', async () => {
    const port = portOf(loop);
    refusedWithoutSecret(await request(port, '/api/runs', { host: `localhost:${port + 1}` }), 403);
    refusedWithoutSecret(await request(port, '/api/runs', { host: `evil.viewer.example:${port}` }), 403);
    refusedWithoutSecret(await request(port, '/api/runs', { host: `viewer.example.evil.test:${port}` }), 403);
    refusedWithoutSecret(await request(port, '/api/runs', { host: `viewer.example@evil.test:${port}` }), 403);
    const allowed = await request(port, '/api/runs/secret', { host: `VIEWER.example:${port}` });
    assert.equal(allowed.status, 200, '--allow-host adds that name (any case), and only it');
  });

  it('127.0.0.1: a decision sent from another origin is refused, with the token and the right Host', async () => {
    const port = portOf(loop);
    const answer = await request(
      port,
      '/api/runs/secret/decision',
      { host: `127.0.0.1:${port}`, origin: 'http://evil.test', 'content-type': 'application/json', 'x-sopworks-token': loop.token },
      { method: 'POST', body: JSON.stringify({ approved: true }) },
    );
    refusedWithoutSecret(answer, 403);
  });

  it('an address beyond the loopback: reads need the token, and only that address is its name', async function () {
    const address = Object.values(os.networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
    if (!address) return this.skip();
    const server = await startReviewServer({ dir: runs, port: 0, host: address });
    try {
      const port = portOf(server);
      refusedWithoutSecret(await request(port, '/api/runs/secret', { host: `${address}:${port}` }, { address }), 401);
      refusedWithoutSecret(await request(port, '/api/runs/secret', { host: `127.0.0.1:${port}`, 'x-sopworks-token': server.token }, { address }), 403);
      const own = await request(port, '/api/runs/secret', { host: `${address}:${port}`, 'x-sopworks-token': server.token }, { address });
      assert.equal(own.status, 200);
    } finally {
      await server.close();
    }
  });

  describe('in a real browser', () => {
    let browser: Browser;
    let attackPage: http.Server;

    before(async function () {
      requireSystem(this, CHROMIUM);
      // The attacker's name resolves to this machine, as DNS rebinding makes it do.
      browser = await launchBrowser(['--host-resolver-rules=MAP rebind.attacker.test 127.0.0.1']);
      attackPage = http.createServer((_req, res) => res.end('<!doctype html><title>innocent</title>'));
      await new Promise<void>((resolve) => attackPage.listen(0, '127.0.0.1', resolve));
    });
    after(async () => {
      // A suite skipped for a missing chromium set nothing up: an absent server's close would never call back.
      await browser?.close();
      if ((attackPage as http.Server | undefined) === undefined) return;
      await new Promise((resolve) => attackPage.close(resolve));
    });

    it('DNS rebinding: a page loaded as rebind.attacker.test reads nothing of the viewer on 0.0.0.0', async () => {
      const page = await browser.newPage();
      try {
        const port = portOf(wild);
        const landing = await page.goto(`http://rebind.attacker.test:${port}/runs/secret`);
        assert.equal(landing?.status(), 403);
        const read = await page.evaluate(async () => {
          const answer = await fetch('/api/runs/secret');
          return { status: answer.status, body: await answer.text() };
        });
        assert.equal(read.status, 403);
        assert.ok(!read.body.includes(SECRET) && !(await page.content()).includes(SECRET));
      } finally {
        await page.close();
      }
    });

    it('another origin: a page elsewhere can neither read the runs nor decide', async () => {
      const page = await browser.newPage();
      try {
        await page.goto(`http://127.0.0.1:${(attackPage.address() as net.AddressInfo).port}/`);
        const viewer = `http://127.0.0.1:${portOf(loop)}`;
        const outcome = await page.evaluate(async (base) => {
          const read = await fetch(`${base}/api/runs/secret`).then(
            (r) => r.text(),
            (e: Error) => `blocked: ${e.message}`,
          );
          const decided = await fetch(`${base}/api/runs/secret/decision`, { method: 'POST', mode: 'no-cors', body: '{"approved":true}' }).then(
            () => 'sent',
            () => 'blocked',
          );
          return { read, decided };
        }, viewer);
        assert.ok(!outcome.read.includes(SECRET), `the cross-origin read got nothing: ${outcome.read.slice(0, 200)}`);
      } finally {
        await page.close();
      }
    });
  });
});
