/**
 * The viewer as a workbench, in a real browser (Debian's chromium through playwright-core): a decision
 * made on a page continues the run — the same `sopworks resume`, started by the server, its progress
 * live on the page — a stopped run is continued and a finished run is handed a change request from its
 * page; questions asked before the PRD (`--clarify`) are answered on the page and the run goes on;
 * headers say where a run stands; no page scrolls sideways at 1280 px or 390 px. And every write
 * is refused without the token, from a page of another origin, or addressed to another name, with the
 * host left as it was: no board line, no decision file, no process, no new run.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import YAML from 'yaml';
import { type ReviewServer, startReviewServer } from '../../src/apps/review/index.ts';
import { readAppendLog } from '../../src/ground/files/index.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { sopworks } from '../helpers/in-process.ts';
import { overflowing } from '../helpers/page-overflow.ts';
import { BIN, DEMO, DEMO_CHANGE, ROOT } from '../helpers/paths.ts';
import { cleanEnv } from '../helpers/run-cli.ts';
import { CHROMIUM, requireSystem } from '../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

/** Script errors, failed loads and requests to anywhere but the viewer: none may happen. */
function watchPage(page: Page, server: ReviewServer): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('request', (request) => {
    if (!request.url().startsWith(server.url) && !request.url().startsWith('data:')) problems.push(`request to ${request.url()}`);
  });
  return problems;
}

const boardOf = async (project: string): Promise<any[]> =>
  (await fs.readFile(path.join(project, '.sopworks', 'board.jsonl'), 'utf8'))
    .split('\n')
    .slice(0, -1)
    .map((line) => JSON.parse(line));

const treeOf = (project: string) => execFileSync('git', ['rev-parse', 'HEAD^{tree}'], { cwd: project, encoding: 'utf8' }).trim();

/** Everything a write could change on the host: which runs there are, and each one's board, decisions, lock and record. */
async function hostState(out: string): Promise<string> {
  const names = (await fs.readdir(out)).sort();
  const files = ['board.jsonl', 'approvals.json', 'lock', 'run.json', 'exchanges.jsonl'];
  const read = (name: string, file: string) => fs.readFile(path.join(out, name, '.sopworks', file), 'utf8').catch(() => '(absent)');
  const parts = await Promise.all(names.flatMap((name) => files.map(async (file) => `${name}/${file}: ${await read(name, file)}`)));
  return [names.join(','), ...parts].join('\n');
}

const CLARIFY = path.join(ROOT, 'test', 'fixtures', 'clarify', 'wordfreq-clarify.yaml');

/** Words that are a step's or a state's own name (camelCase: awaitApproval, toReview) in the page's state lines. */
const internalNames = (page: Page): Promise<string[]> =>
  page.evaluate(() =>
    [...(globalThis as any).document.querySelectorAll('#summary, .now-working, #live')].flatMap(
      // A word of a path is not one (a temp folder's random suffix, sopworks-test-thgpPK, reads as camelCase).
      (el: any) => el.innerText.match(/(?<![\w./-])[a-z]+[A-Z][A-Za-z]*(?![\w/-]|\.\w)/g) ?? [],
    ),
  );

/** The numbers of the run list that are laid out on more than one line. */
const wrappedNumbers = (page: Page): Promise<string[]> =>
  page.evaluate(() =>
    [...(globalThis as any).document.querySelectorAll('td.num')]
      .filter((td: any) => {
        const range = (globalThis as any).document.createRange();
        range.selectNodeContents(td);
        return new Set([...range.getClientRects()].map((r: any) => Math.round(r.top))).size > 1;
      })
      .map((td: any) => td.textContent),
  );
const text = (page: Page, selector: string) => page.locator(selector).first().innerText();
const badge = (page: Page, label: string, timeout = 30_000) =>
  page.waitForFunction((expected) => (globalThis as any).document.querySelector('#summary .badge')?.textContent === expected, label, { timeout });
const liveSays = (page: Page, label: string, timeout = 30_000) =>
  page.waitForFunction((expected) => (globalThis as any).document.getElementById('live')?.textContent === expected, label, { timeout });

describe('the viewer as a workbench: the run goes on from the page', function () {
  this.timeout(120_000);
  let root: string;
  let out: string;
  let server: ReviewServer;
  let browser: Browser;
  /** A browser context holding the token, as one opened with the URL `serve` printed. */
  let owner: BrowserContext;

  /** A run interrupted by Ctrl-C in the middle: outcome interrupted, which resume continues. */
  async function interruptedRun(name: string): Promise<void> {
    const child = spawn(process.execPath, [BIN, 'run', '--llm', `scripted:${DEMO}`, '--out', out, '--name', name], {
      cwd: root,
      env: cleanEnv({ SOPWORKS_SCRIPTED_LATENCY_MS: '100' }),
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    while ((await boardOf(path.join(out, name)).catch(() => [])).length < 4) await sleep(20);
    child.kill('SIGINT');
    assert.equal(await exited, 130, 'the run stopped as interrupted');
  }

  before(async function () {
    requireSystem(this, CHROMIUM);
    root = await tempDir('sopworks-workbench-');
    out = path.join(root, 'output');
    await fs.mkdir(out);
    // The demo's scenario, with the PRD revised once more as a person asks (a new goal), and reviewed.
    const scenario = YAML.parse(await fs.readFile(DEMO, 'utf8'));
    const last = (action: string) => structuredClone(scenario.replies.findLast((r: any) => r.action === action));
    const revised = last('revise_prd');
    revised.json.goals.push('Print the counts as JSON with --json');
    scenario.replies.push(revised, last('review_prd'));
    const rejectable = path.join(root, 'rejectable.yaml');
    await fs.writeFile(rejectable, YAML.stringify(scenario));
    // The demo's scenario, with two questions before the PRD (the clarify run's, test/fixtures/clarify/).
    const demo = YAML.parse(await fs.readFile(DEMO, 'utf8'));
    const clarify = YAML.parse(await fs.readFile(CLARIFY, 'utf8')).replies.find((r: any) => r.action === 'clarify');
    demo.replies.unshift(clarify);
    const asking = path.join(root, 'asking.yaml');
    await fs.writeFile(asking, YAML.stringify(demo));
    const run = (name: string, ...extra: string[]) => sopworks(['run', '--llm', `scripted:${DEMO}`, '--out', out, '--name', name, ...extra], { cwd: root });
    const [done, gateYes, gateNo, asks, launched, gateDesign] = await Promise.all([
      run('finished'),
      run('gate-yes', '--approve', 'prd'),
      sopworks(['run', '--llm', `scripted:${rejectable}`, '--out', out, '--name', 'gate-no', '--approve', 'prd'], { cwd: root }),
      sopworks(['run', '--llm', `scripted:${asking}`, '--out', out, '--name', 'asking', '--clarify'], { cwd: root }),
      launchBrowser(),
      run('gate-design', '--approve', 'design'),
      interruptedRun('stopped'),
    ]);
    browser = launched;
    assert.equal(done.code, 0, done.stderr);
    for (const gated of [gateYes, gateNo, asks, gateDesign]) assert.equal(gated!.code, 4, gated!.stderr);
    // A run whose model is a long path and whose spec is one long word: what used to widen the list.
    const long = path.join(out, 'long-names');
    await fs.cp(path.join(out, 'finished'), long, { recursive: true, verbatimSymlinks: true });
    const info = JSON.parse(await fs.readFile(path.join(long, '.sopworks', 'run.json'), 'utf8'));
    info.model = `scripted:/${'a-rather-long-folder-name/'.repeat(8)}scenario-with-a-long-name.yaml`;
    info.spec = `count-${'words'.repeat(40)}`;
    await fs.writeFile(path.join(long, '.sopworks', 'run.json'), JSON.stringify(info));
    server = await startReviewServer({
      dir: out,
      port: 0,
      host: '127.0.0.1',
      launch: { cwd: root, env: cleanEnv({ SOPWORKS_SCRIPTED_LATENCY_MS: '50' }), llm: `scripted:${DEMO_CHANGE}` },
    });
    owner = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await owner.newPage();
    await page.goto(server.tokenUrl);
    await page.close();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await removeTempDirs();
  });

  /** The four writes, each aimed at a run it would act on. */
  const writes = [
    { route: 'gate-no/decision', body: { approved: true } },
    { route: 'asking/answers', body: { role: 'product-manager', round: 0, answers: ['yes', ''] } },
    { route: 'stopped/resume', body: { hint: null } },
    { route: 'finished/change', body: { request: 'add a --json flag' } },
  ];

  it('refuses every write without the token, from another origin, or addressed to another name — the host untouched', async () => {
    const before = await hostState(out);
    // 1. A page of the viewer opened without the token.
    const reader = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await reader.goto(server.url);
    const withoutToken = await reader.evaluate(
      async (requests) =>
        Promise.all(
          requests.map(async ({ route, body }) => {
            const res = await fetch(`/api/runs/${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
            return [res.status, ((await res.json()) as any).error];
          }),
        ),
      writes,
    );
    for (const [status, error] of withoutToken) {
      assert.equal(status, 403);
      assert.match(error, /needs the token/);
    }
    await reader.close();

    // 2. A page of another origin, in the browser that holds the token: its POSTs carry the cookie but not this Origin.
    const elsewhere = http.createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>elsewhere</title>'));
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    try {
      const page = await owner.newPage();
      const answers: number[] = [];
      page.on('response', (response) => {
        if (response.url().startsWith(server.url)) answers.push(response.status());
      });
      await page.goto(`http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/`);
      await page.evaluate(
        async ({ base, requests }) => {
          for (const { route, body } of requests)
            await fetch(`${base}api/runs/${route}`, {
              method: 'POST',
              mode: 'no-cors',
              credentials: 'include',
              headers: { 'content-type': 'text/plain' },
              body: JSON.stringify(body),
            });
        },
        { base: server.url, requests: writes },
      );
      assert.deepEqual(answers, [403, 403, 403, 403], 'each refused by its Origin');
      await page.close();
    } finally {
      elsewhere.close();
    }

    // 3. A name that resolves to this machine but is not the viewer's (DNS rebinding).
    const rebinding = await launchBrowser(['--host-resolver-rules=MAP rebind.test 127.0.0.1']);
    try {
      const page = await rebinding.newPage();
      const { port } = new URL(server.url);
      const first = await page.goto(`http://rebind.test:${port}/`);
      assert.equal(first?.status(), 403, 'the page itself is not served under that name');
      const refused = await page.evaluate(
        async (requests) =>
          Promise.all(
            requests.map(async ({ route, body }) => {
              const res = await fetch(`/api/runs/${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
              return [res.status, ((await res.json()) as any).error];
            }),
          ),
        writes,
      );
      for (const [status, error] of refused) {
        assert.equal(status, 403);
        assert.match(error, /must be addressed to/);
      }
    } finally {
      await rebinding.close();
    }
    assert.equal(await hostState(out), before, 'no board line, decision, lock, record or run was made');
    for (const name of ['gate-no', 'asking', 'stopped', 'finished']) {
      const page = JSON.parse(await (await fetch(`${server.url}api/runs/${name}`)).text());
      assert.equal(page.launch, null, `nothing was started for ${name}`);
    }
  });

  it('fits 1280 px and 390 px on every page, with times as a person says them and states that are true', async () => {
    const pages: [string, string][] = [
      ['', 'tr[data-run="long-names"]'],
      ['runs/finished', '#change-request'],
      ['runs/gate-no', '#decision form'],
      ['runs/gate-design', '#decision form'],
      ['runs/asking', '#decision form.answers'],
      ['runs/stopped', '#resume-hint'],
      ['runs/long-names', '#summary .badge'],
      ['runs/not-yet', '.waiting'],
    ];
    for (const [width, height] of [
      [1280, 900],
      [390, 844],
    ] as const) {
      const page = await owner.newPage();
      await page.setViewportSize({ width, height });
      const problems = watchPage(page, server);
      for (const [where, ready] of pages) {
        await page.goto(`${server.url}${where}`);
        await page.waitForSelector(ready);
        const at = `${where || 'the run list'} at ${width} px`;
        assert.deepEqual(await overflowing(page), [], at);
        assert.doesNotMatch(await page.locator('main').innerText(), /Show 0 more|\b0 not shown/, at);
        assert.deepEqual(await internalNames(page), [], `${at}: no step's or state's own name`);
        if (where.startsWith('runs/gate-')) {
          // The decision's buttons are on the first screen, the artifact still to read below them.
          const approve = await page.getByRole('button', { name: 'Approve' }).boundingBox();
          assert.ok(approve && approve.y >= 0 && approve.y + approve.height <= height, `${at}: Approve at ${JSON.stringify(approve)}`);
          // Once the page follows the run (its stream open), the header line says what the badge says.
          await page.waitForFunction(() => {
            const doc = (globalThis as any).document;
            return doc.getElementById('live')?.textContent === doc.querySelector('#summary .badge')?.textContent;
          });
        }
      }
      assert.deepEqual(
        problems.filter((p) => !/404/.test(p)),
        [],
      );
      await page.close();
    }
    const page = await owner.newPage();
    await page.goto(server.url);
    await page.waitForSelector('tr[data-run="gate-no"]');
    for (const started of await page.locator('td[data-label="started"]').allInnerTexts()) assert.doesNotMatch(started, /\d{4}-\d\d-\d\dT/, 'no raw ISO time');
    assert.equal(await text(page, 'tr[data-run="gate-no"] .badge'), 'waiting for you');
    assert.equal(await text(page, 'tr[data-run="stopped"] .badge'), 'interrupted');
    // What waits for a person comes first; the newest next.
    const states = await page.locator('tr.run-row .badge').allInnerTexts();
    const waiting = states.filter((s) => s === 'waiting for you').length;
    assert.ok(waiting >= 4 && states.slice(0, waiting).every((s) => s === 'waiting for you'), states.join(', '));
    assert.deepEqual(await wrappedNumbers(page), [], 'no number wraps mid-digit');
    assert.match(await text(page, 'tr[data-run="long-names"] [data-label="model"]'), /^scripted:…\/scenario-with-a-long-name\.yaml$/);
    await page.goto(`${server.url}runs/gate-no`);
    await liveSays(page, 'waiting for you');
    assert.doesNotMatch(await text(page, '#summary'), /\d{4}-\d\d-\d\dT/);
    assert.match(
      await text(page, '#summary'),
      /Elapsed\s+\d.* so far \(\d+\.\ds of it at work\)/,
      'a run waiting for a person: its time so far, waiting included',
    );
    await page.goto(`${server.url}runs/gate-design`);
    await page.waitForSelector('#decision .request');
    assert.equal(await text(page, '#decision .request .markdown h1'), 'wordfreq — System design', 'titled with the project, not "the project"');
    await page.goto(`${server.url}runs/stopped`);
    await liveSays(page, 'interrupted');
    assert.match(await text(page, '.now-working'), /Where each role stopped:[\s\S]*product-manager/);
    await page.close();
  });

  it('goes on after an approval from the page: resumed by the viewer, its progress live, to its end', async () => {
    const page = await owner.newPage();
    const problems = watchPage(page, server);
    await page.goto(`${server.url}runs/gate-yes`);
    await page.waitForSelector('#decision form');
    assert.equal(await text(page, '#summary .badge'), 'waiting for you', 'awaiting a decision is not "finished"');
    await page.evaluate(() => ((globalThis as any).notReloaded = true));
    // The page follows the run (its stream open) before the click: until then its line says it is connecting.
    await liveSays(page, 'waiting for you');
    // Every state the header shows, in its badge and its line, while the run goes on: never two at once.
    await page.evaluate(() => {
      const g = globalThis as any;
      g.states = [];
      g.sampler = setInterval(() => {
        const badge = g.document.querySelector('#summary .badge')?.textContent;
        const live = g.document.getElementById('live')?.textContent;
        if (g.states.at(-1)?.join() !== [badge, live].join()) g.states.push([badge, live]);
      }, 20);
    });
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForSelector('.decision-result p');
    assert.match(
      await text(page, '.decision-result'),
      /Approved the prd of product-manager\. Recorded on the board; the run goes on: this viewer continued it\./,
    );
    await page.waitForSelector('.now-working[data-live="true"] .now-role[data-role="engineer"]', { timeout: 60_000 });
    await page.waitForSelector('#timeline .message[data-type="Outcome"]', { timeout: 60_000 });
    await badge(page, 'done');
    await liveSays(page, 'finished');
    const states: [string, string][] = await page.evaluate(() => {
      clearInterval((globalThis as any).sampler);
      return (globalThis as any).states;
    });
    const agree = ([shown, live]: [string, string]) =>
      shown === live || (shown === 'in progress' && live === '● live') || (['done', 'failed'].includes(shown) && live === 'finished');
    assert.deepEqual(
      states.filter((pair) => !agree(pair)),
      [],
      `badge and line, as they went: ${JSON.stringify(states)}`,
    );
    assert.ok(
      states.some(([shown]) => shown === 'starting…'),
      `once approved, it is starting, not still waiting for you: ${JSON.stringify(states)}`,
    );
    // It waited for the person from the suite's start until the click: that time is in its elapsed time.
    const elapsed = /Elapsed\s+(?:(\d+) min )?(\d+(?:\.\d)?) ?s? ?s?[\s\S]*?\((\d+\.\d)s of it at work\)/.exec(await text(page, '#summary'));
    assert.ok(elapsed, await text(page, '#summary'));
    const seconds = Number(elapsed[1] ?? 0) * 60 + Number(elapsed[2]);
    assert.ok(seconds > Number(elapsed[3]) + 5, `elapsed ${seconds} s, at work ${elapsed[3]} s`);
    assert.match(await text(page, '.launch'), /Continued by this viewer[\s\S]*it ended: done/);
    assert.equal(await page.evaluate(() => (globalThis as any).notReloaded), true, 'followed live, without a reload');
    const board = await boardOf(path.join(out, 'gate-yes'));
    assert.deepEqual(board.find((m) => m.type === 'Approval').payload, {
      role: 'product-manager',
      gate: 'prd',
      key: null,
      round: 0,
      approved: true,
      feedback: null,
    });
    assert.equal(board.at(-1).type, 'Outcome');
    assert.equal(treeOf(path.join(out, 'gate-yes')), treeOf(path.join(out, 'finished')), 'the same repository as a run never stopped');
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('goes on after the answers to its questions from the page: recorded as a terminal records them, then resumed to its end', async () => {
    const page = await owner.newPage();
    const problems = watchPage(page, server);
    await page.goto(`${server.url}runs/asking`);
    await page.waitForSelector('#decision form.answers');
    assert.match(await text(page, '#decision'), /Waiting for your answers[\s\S]*product-manager asks before it writes/);
    assert.match(await text(page, '#decision form.answers'), /decides whether a file argument is required/);
    assert.equal(await page.locator('#resume-hint').count(), 0, 'no Continue while questions wait');
    await page.getByLabel('1. Should it read standard input when no file is given?').fill('Yes, when no file is given');
    await page.getByRole('button', { name: 'Send the answers' }).click();
    await page.waitForSelector('.decision-result p');
    assert.match(
      await text(page, '.decision-result'),
      /Sent the answers to 2 questions of product-manager\. Recorded on the board; the run goes on: this viewer continued it\./,
    );
    await page.waitForSelector('#timeline .message[data-type="Outcome"]', { timeout: 60_000 });
    await badge(page, 'done');
    const board = await boardOf(path.join(out, 'asking'));
    const answers = board.find((m) => m.type === 'Answers');
    assert.deepEqual(
      [answers.from, answers.to, answers.payload.answers.map((a: any) => a.answer)],
      ['client', 'product-manager', ['Yes, when no file is given', '']],
    );
    const { records } = await readAppendLog(path.join(out, 'asking', '.sopworks', 'exchanges.jsonl'));
    const calls = records as { action: string; messages: { content: string }[] }[];
    assert.equal(calls.filter((r) => r.action === 'clarify').length, 1, 'the questions were asked of the model once');
    assert.match(calls.find((r) => r.action === 'write_prd')!.messages[1]!.content, /Answer: Yes, when no file is given[\s\S]*Answer: no preference/);
    assert.equal(treeOf(path.join(out, 'asking')), treeOf(path.join(out, 'finished')), 'answers are on the board, not in the repository');
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('after a rejection from the page, the role revises and the run waits for the next decision', async () => {
    const page = await owner.newPage();
    const problems = watchPage(page, server);
    await page.goto(`${server.url}runs/gate-no`);
    await page.waitForSelector('#decision form');
    await page.getByRole('button', { name: 'Reject with feedback' }).click();
    await page.waitForSelector('#decision [role="alert"]:text("a rejection needs feedback")');
    await page.getByLabel('Feedback for the role').fill('Add a --json output mode.');
    await page.getByRole('button', { name: 'Reject with feedback' }).click();
    await page.waitForSelector('.decision-result p');
    assert.match(await text(page, '.decision-result'), /Rejected the prd of product-manager\. Recorded on the board; the run goes on/);
    // The revised PRD comes back for a decision: round 1, on the same page.
    await page.waitForSelector('.launch[data-state="ended"]', { timeout: 60_000 });
    await page.waitForSelector('#decision form');
    await liveSays(page, 'waiting for you');
    const board = await boardOf(path.join(out, 'gate-no'));
    assert.deepEqual(board.find((m) => m.type === 'Approval').payload, {
      role: 'product-manager',
      gate: 'prd',
      key: null,
      round: 0,
      approved: false,
      feedback: 'Add a --json output mode.',
    });
    const pending = JSON.parse(await fs.readFile(path.join(out, 'gate-no', '.sopworks', 'approvals.json'), 'utf8'));
    assert.deepEqual(
      pending.map((p: any) => [p.gate, p.round]),
      [['prd', 1]],
    );
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('continues an interrupted run from its page, to the repository a run never stopped gives', async () => {
    const page = await owner.newPage();
    const problems = watchPage(page, server);
    await page.goto(`${server.url}runs/stopped`);
    await badge(page, 'interrupted');
    await page.getByRole('button', { name: 'Continue the run' }).click();
    await page.waitForSelector('#timeline .message[data-type="Outcome"]', { timeout: 60_000 });
    await badge(page, 'done');
    assert.equal(await page.locator('#resume-hint').count(), 0, 'a done run offers no Continue');
    assert.equal(treeOf(path.join(out, 'stopped')), treeOf(path.join(out, 'finished')));
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('starts a change of a finished run with a request typed on its page, and follows it', async () => {
    const page = await owner.newPage();
    const problems = watchPage(page, server);
    await page.goto(`${server.url}runs/finished`);
    await page.getByLabel('What should change?').fill('add a --json flag that prints the counts as JSON');
    await page.getByRole('button', { name: 'Start the change' }).click();
    await page.waitForURL(/\/runs\/finished-/, { timeout: 60_000 });
    const name = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]!);
    await page.waitForSelector('#timeline .message[data-type="Outcome"]', { timeout: 60_000 });
    await badge(page, 'done');
    assert.match(await text(page, '.launch'), /Change started by this viewer[\s\S]*it ended: done/);
    const requirement = (await boardOf(path.join(out, name)))[0];
    assert.equal(requirement.payload.request, 'add a --json flag that prints the counts as JSON');
    assert.deepEqual(
      problems.filter((p) => !/404/.test(p)),
      [],
    );
    await page.close();
  });
});
