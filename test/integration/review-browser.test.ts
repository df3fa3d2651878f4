/**
 * The viewer in a real browser (Debian's chromium through playwright-core), against the server on
 * runs made by the CLI with the scripted model: the timeline in order, diagrams drawn as SVG, the
 * on-demand views, and a live run whose new messages appear in the open page without a reload.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser, Page } from 'playwright-core';
import { startReviewServer, type ReviewServer } from '../../src/review/server/review-server.ts';
import { artifactPath, launchBrowser } from '../helpers/browser.ts';
import { BIN, DEMO } from '../helpers/paths.ts';
import { cleanEnv, runCli } from '../helpers/run-cli.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';
import { CHROMIUM, requireSystem } from '../helpers/system-requirements.ts';

/** Everything a page did that a reviewer should never see: script errors, failed loads, requests elsewhere. */
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

/** The board's complete lines (a run in progress may be writing the next one). */
const boardOf = async (project: string): Promise<{ id: string; type: string }[]> =>
  (await fs.readFile(path.join(project, '.sopworks', 'board.jsonl'), 'utf8'))
    .split('\n')
    .slice(0, -1)
    .map((line) => JSON.parse(line));

// Functions below run in the page, where `document` exists; this project's type check has no DOM
// library, so they reach it through an untyped globalThis.
const timelineOf = (page: Page): Promise<{ id: string; type: string }[]> =>
  page.evaluate(() => [...(globalThis as any).document.querySelectorAll('#timeline .message')].map((li: any) => ({ id: li.id, type: li.dataset.type })));

const timelineLength = (page: Page, n: number) =>
  page.waitForFunction((count) => (globalThis as any).document.querySelectorAll('#timeline .message').length === count, n);

/** Starts a scripted run in `out` as a child process; the latency spreads it over a few seconds. */
function startRun(root: string, out: string, name: string, extra: string[] = [], latencyMs = 100): { child: ChildProcess; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [BIN, 'run', '--llm', `scripted:${DEMO}`, '--out', out, '--name', name, ...extra], {
    cwd: root,
    env: cleanEnv({ SOPWORKS_SCRIPTED_LATENCY_MS: String(latencyMs) }),
    stdio: 'ignore',
  });
  return { child, exited: new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? -1 : null)))) };
}

const liveText = (page: Page, text: string, timeout = 10_000) =>
  page.waitForFunction((expected) => (globalThis as any).document.getElementById('live')?.textContent === expected, text, { timeout });

const outcomeBadge = (page: Page, text: string) =>
  page.waitForFunction((expected) => (globalThis as any).document.querySelector('#summary .badge')?.textContent === expected, text);

/** Waits until every diagram on the page is drawn, or has failed to draw. */
const diagramsSettled = (page: Page) =>
  page.waitForFunction(() => {
    const diagrams = [...(globalThis as any).document.querySelectorAll('.diagram')];
    return diagrams.length > 0 && diagrams.every((d: any) => d.dataset.state === 'drawn' || d.dataset.state === 'error');
  });

describe('the review viewer in a real browser', function () {
  this.timeout(60_000);
  let root: string;
  let out: string;
  let server: ReviewServer;
  let browser: Browser;

  before(async function () {
    requireSystem(this, CHROMIUM);
    root = await tempDir('sopworks-browser-');
    out = path.join(root, 'output');
    await fs.mkdir(out);
    const gated = (name: string) => runCli(['run', '--llm', `scripted:${DEMO}`, '--out', out, '--name', name, '--approve', 'prd'], { cwd: root });
    const [made, launched, ...stopped] = await Promise.all([runCli(['run', '--llm', `scripted:${DEMO}`, '--out', out, '--name', 'wordfreq'], { cwd: root }), launchBrowser(), gated('gate-yes'), gated('gate-no')]);
    browser = launched;
    assert.equal(made.code, 0, made.stderr);
    for (const run of stopped) assert.equal(run.code, 4, run.stderr);
    server = await startReviewServer({ dir: out, port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await removeTempDirs();
  });

  it('shows the timeline in board order and draws the design, task and SOP diagrams as SVG', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems = watchPage(page, server);
    await page.goto(`${server.url}runs/wordfreq`);
    await page.waitForSelector('#timeline .message[data-type="Outcome"]');
    const board = await boardOf(path.join(out, 'wordfreq'));
    assert.deepEqual(await timelineOf(page), board.map((m) => ({ id: m.id, type: m.type })));
    assert.match(await page.locator('#timeline .message').first().innerText(), /client\s*→\s*all\s*Requirement\s*a CLI that counts word frequencies in text files/);
    assert.match(await page.locator('#msg-000014').innerText(), /qa\s*→\s*engineer\s*BugReport/);
    assert.equal(await page.locator('#summary .badge').innerText(), 'done');

    await diagramsSettled(page);
    assert.equal(await page.locator('.diagram[data-state="error"]').count(), 0, 'every diagram parses');
    const drawn = await page.locator('#documents .diagram svg').evaluateAll((svgs) => svgs.map((svg) => svg.getAttribute('aria-roledescription')));
    assert.deepEqual(drawn, ['classDiagram', 'sequence', 'flowchart-v2']);
    assert.match(await page.locator('#documents .diagram svg').first().textContent() ?? '', /Tokenize/);
    assert.equal(await page.locator('#roles .diagram svg').count(), 4, 'one SOP state diagram per role');
    const marked = await page.locator('#roles svg .node.current').allTextContents();
    const recorded = await Promise.all(['product-manager', 'architect', 'engineer', 'qa'].map(async (role) => JSON.parse(await fs.readFile(path.join(out, 'wordfreq', '.sopworks', 'roles', `${role}.json`), 'utf8')).state));
    assert.deepEqual(marked, recorded, 'each diagram marks the state its role was last in');

    await page.screenshot({ path: artifactPath('review-run.png') });
    await page.locator('#documents .diagram').first().screenshot({ path: artifactPath('review-class-diagram.png') });
    await page.locator('#roles .role-card').first().screenshot({ path: artifactPath('review-sop-diagram.png') });
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('opens a model exchange and a commit diff on demand', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems = watchPage(page, server);
    await page.goto(`${server.url}runs/wordfreq`);
    await page.waitForSelector('#exchanges .exchange');
    assert.equal(await page.locator('.exchange-body').count(), 0, 'prompts are not loaded until asked for');
    await page.locator('#exchanges .exchange summary').first().click();
    await page.waitForSelector('.exchange-body');
    assert.match(await page.locator('.exchange-body').innerText(), /SYSTEM[\s\S]*Product Manager[\s\S]*USER[\s\S]*a CLI that counts word frequencies[\s\S]*REPLY[\s\S]*"projectName": "wordfreq"/i);

    await page.locator('#commits li', { hasText: 'docs: product requirements for wordfreq' }).locator('summary').click();
    await page.waitForSelector('#commits pre.diff');
    assert.match(await page.locator('#commits pre.diff').innerText(), /diff --git a\/docs\/prd\.md b\/docs\/prd\.md[\s\S]*\+# wordfreq — Product Requirements/);
    await page.screenshot({ path: artifactPath('review-on-demand.png') });
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('follows a live run: the run appears in the list, and new messages appear in the open page', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems = watchPage(page, server);
    await page.goto(server.url);
    await page.waitForSelector('tr[data-run="wordfreq"]');

    const project = path.join(out, 'live');
    const run: ChildProcess = spawn(process.execPath, [BIN, 'run', '--llm', `scripted:${DEMO}`, '--out', out, '--name', 'live'], {
      cwd: root,
      env: cleanEnv({ SOPWORKS_SCRIPTED_LATENCY_MS: '100' }),
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) => run.on('exit', resolve));
    try {
      // The list page learns of the new run by itself.
      await page.waitForSelector('tr[data-run="live"]');
      // Hold the run still while the page opens, so it is certainly in progress: first messages out, no outcome.
      while ((await boardOf(project).catch(() => [])).length < 2) await sleep(20);
      run.kill('SIGSTOP');
      const before = await boardOf(project);
      await page.click('tr[data-run="live"] a');
      await timelineLength(page, before.length);
      assert.equal(await page.locator('#summary .badge').innerText(), 'in progress');
      assert.equal(await page.locator('#timeline .message[data-type="Outcome"]').count(), 0);
      await page.evaluate(() => ((globalThis as any).notReloaded = true));

      run.kill('SIGCONT');
      await page.waitForSelector('#timeline .message[data-type="Outcome"]', { timeout: 45_000 });
      await outcomeBadge(page, 'done');
      assert.equal(await exited, 0);
      const after = await boardOf(project);
      assert.ok(after.length > before.length);
      assert.deepEqual(await timelineOf(page), after.map((m) => ({ id: m.id, type: m.type })), 'every message, in order, with none twice');
      assert.equal(await page.evaluate(() => (globalThis as any).notReloaded), true, 'the page updated without a reload');
      await diagramsSettled(page);
      await page.screenshot({ path: artifactPath('review-live.png') });
      assert.deepEqual(problems, []);
    } finally {
      if (run.exitCode === null && run.signalCode === null) {
        run.kill('SIGCONT');
        run.kill('SIGTERM');
      }
      await exited;
      await page.close();
    }
  });

  it('shows a run whose process was killed as stopped within seconds, on an open page and a fresh one', async () => {
    const project = path.join(out, 'killed');
    const run = startRun(root, out, 'killed', [], 300);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems = watchPage(page, server);
    try {
      while ((await boardOf(project).catch(() => [])).length < 2) await sleep(20);
      await page.goto(`${server.url}runs/killed`);
      await outcomeBadge(page, 'in progress');
      await liveText(page, '● live');
      run.child.kill('SIGKILL');
      await run.exited;
      // Nothing in the run's files changes when its process dies: only the lock's owner says so.
      await outcomeBadge(page, 'stopped before an outcome');
      await liveText(page, 'stopped');
      const fresh = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await fresh.goto(`${server.url}runs/killed`);
      await outcomeBadge(fresh, 'stopped before an outcome');
      await liveText(fresh, 'stopped');
      await fresh.goto(server.url);
      await fresh.waitForSelector('tr[data-run="killed"] .badge.stopped');
      await fresh.close();
      assert.deepEqual(problems, []);
    } finally {
      run.child.kill('SIGKILL');
      await page.close();
    }
  });

  it('replaces what an open page shows when the run is re-run with --force', async () => {
    const project = path.join(out, 'killed');
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${server.url}runs/killed`);
    await outcomeBadge(page, 'stopped before an outcome');
    const rerun = startRun(root, out, 'killed', ['--force'], 0);
    assert.equal(await rerun.exited, 0);
    await page.waitForSelector('#timeline .message[data-type="Outcome"]', { timeout: 30_000 });
    await outcomeBadge(page, 'done');
    const board = await boardOf(project);
    // The page may still be catching up with the last commit: wait for the history to settle, then compare.
    const commits = execFileSync('git', ['log', '--reverse', '--format=%H'], { cwd: project, encoding: 'utf8' }).trim().split('\n');
    await page.waitForFunction((n) => (globalThis as any).document.querySelectorAll('#commits li').length === n, commits.length);
    assert.deepEqual(await timelineOf(page), board.map((m) => ({ id: m.id, type: m.type })), 'only the new run, each message once');
    assert.deepEqual(await page.locator('#commits li').evaluateAll((lis) => lis.map((li) => (li as any).dataset.hash)), commits);
    assert.match(await page.locator('#summary').innerText(), new RegExp(`Messages\\s*${board.length}\\b`));
    await page.close();
  });

  it('follows a run opened before it exists, from the moment it appears', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems = watchPage(page, server);
    await page.goto(`${server.url}runs/later`);
    await page.waitForSelector('text=Waiting for the run “later”');
    assert.match(await page.locator('main').innerText(), /There is no run called "later"/);
    const run = startRun(root, out, 'later', [], 0);
    assert.equal(await run.exited, 0);
    await page.waitForSelector('#timeline .message[data-type="Outcome"]', { timeout: 30_000 });
    await outcomeBadge(page, 'done');
    assert.deepEqual(await timelineOf(page), (await boardOf(path.join(out, 'later'))).map((m) => ({ id: m.id, type: m.type })));
    // A 404 while waiting is the page asking, not a failure a reader should see in the console.
    assert.deepEqual(problems.filter((p) => !/404/.test(p)), []);
    await page.close();
  });

  it('says what happened when a run cannot be read', async () => {
    const broken = path.join(out, 'broken', '.sopworks');
    await fs.mkdir(broken, { recursive: true });
    await fs.writeFile(path.join(broken, 'board.jsonl'), 'not json\n{}\n');
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${server.url}runs/broken`);
    await page.waitForSelector('.error-page');
    const text = await page.locator('.error-page').innerText();
    assert.match(text, /The server could not read this/);
    assert.match(text, /board\.jsonl:1/);
    await fs.rm(path.join(out, 'broken'), { recursive: true });
    await page.close();
  });

  /** The last message on a run's board. */
  const lastMessage = async (name: string) => (await boardOf(path.join(out, name))).at(-1) as any;

  it('approves a run awaiting approval from its page, recorded on the board', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems = watchPage(page, server);
    await page.goto(server.tokenUrl);
    assert.equal(page.url(), server.url, 'the token leaves the address bar');
    await page.goto(`${server.url}runs/gate-yes`);
    await page.waitForSelector('#decision form');
    assert.match(await page.locator('#decision').innerText(), /Waiting for your decision[\s\S]*Approve the prd of product-manager\?[\s\S]*wordfreq — Product Requirements/);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForSelector('.decision-result :text("Approved the prd of product-manager")');
    assert.match(await page.locator('.decision-result').innerText(), /continue the run with sopworks resume .*gate-yes/);
    assert.deepEqual((await lastMessage('gate-yes')).payload, { role: 'product-manager', gate: 'prd', key: null, round: 0, approved: true, feedback: null });
    // The page follows the board: nothing is waiting any more.
    await page.waitForFunction(() => !(globalThis as any).document.querySelector('#decision form'));
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('rejects with feedback from the page, and asks for the feedback first', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems = watchPage(page, server);
    await page.goto(server.tokenUrl);
    await page.goto(`${server.url}runs/gate-no`);
    await page.waitForSelector('#decision form');
    const before = await boardOf(path.join(out, 'gate-no'));
    await page.getByRole('button', { name: 'Reject with feedback' }).click();
    await page.waitForSelector('#decision [role="alert"]:text("a rejection needs feedback")');
    assert.equal((await boardOf(path.join(out, 'gate-no'))).length, before.length, 'nothing recorded without feedback');
    await page.getByLabel('Feedback for the role').fill('Add a --json output mode.');
    await page.getByRole('button', { name: 'Reject with feedback' }).click();
    await page.waitForSelector('.decision-result :text("Rejected the prd of product-manager")');
    assert.deepEqual((await lastMessage('gate-no')).payload, { role: 'product-manager', gate: 'prd', key: null, round: 0, approved: false, feedback: 'Add a --json output mode.' });
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('offers no decision to a page opened without the token, and the server refuses one sent from it', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await fs.writeFile(path.join(out, 'gate-no', '.sopworks', 'approvals.json'), JSON.stringify([{ role: 'product-manager', gate: 'prd', key: null, round: 1, content: '# again' }]));
    try {
      await page.goto(`${server.url}runs/gate-no`);
      await page.waitForSelector('#decision :text("To decide from this page, open the URL")');
      assert.equal(await page.locator('#decision form').count(), 0);
      const before = await boardOf(path.join(out, 'gate-no'));
      const status = await page.evaluate(async () => (await fetch('/api/runs/gate-no/decision', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"approved":true}' })).status);
      assert.equal(status, 403);
      assert.deepEqual(await boardOf(path.join(out, 'gate-no')), before);
    } finally {
      await fs.rm(path.join(out, 'gate-no', '.sopworks', 'approvals.json'), { force: true });
      await page.close();
    }
  });
});
