/**
 * A change reviewed as a diff: `sopworks review --diff` prints the change run's diff against its base —
 * the branch, the code, the tests it added, its documents, each file's patch — and the commands to merge
 * it and remove its work tree, which do what they say when typed; the workbench shows the same on the
 * change's page (Chromium at 1280 and 390 px, axe-core with no serious violation) and links the base's
 * run and its changes both ways. Runs the CLI on the demo and its change (examples/), in this process
 * (test/helpers/in-process.ts): what it prints, not the terminal, is under test.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser } from 'playwright-core';
import { type ReviewServer, startReviewServer } from '../../src/apps/review/index.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { sopworks } from '../helpers/in-process.ts';
import { overflowing } from '../helpers/page-overflow.ts';
import { DEMO, DEMO_CHANGE } from '../helpers/paths.ts';
import { CHROMIUM, requireSystem } from '../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const CHANGE = 'wordfreq-add-json-flag';
const BRANCH = 'sopworks/add-json-flag';
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
/** The command printed after a label ("Merge it:"), without the note in brackets after it. */
const commandOf = (printed: string, label: string) =>
  printed
    .split('\n')
    .find((l) => l.startsWith(label))!
    .slice(label.length)
    .trim()
    .split('   (')[0]!;

describe('a change reviewed as a diff: in the terminal and on the workbench', function () {
  this.timeout(120_000);
  let out: string;
  let base: string;
  let change: string;

  before(async () => {
    out = path.join(await tempDir('sopworks-change-review-'), 'output');
    await fs.mkdir(out);
    base = path.join(out, 'wordfreq');
    change = path.join(out, CHANGE);
    const demo = await sopworks(['run', '--llm', `scripted:${DEMO}`, '--out', out], { cwd: out });
    assert.equal(demo.code, 0, demo.stdout + demo.stderr);
    const made = await sopworks(['change', base, '--llm', `scripted:${DEMO_CHANGE}`, '--out', out], { cwd: out });
    assert.equal(made.code, 0, made.stdout + made.stderr);
  });
  after(removeTempDirs);

  it('review --diff prints the branch, each file against the base with the tests it added, and commands that merge it and clean up', async () => {
    const shown = await sopworks(['review', change, '--diff'], { cwd: out });
    assert.equal(shown.code, 0, shown.stderr);
    const lines = shown.stdout.split('\n');
    const baseCommit = git(change, 'merge-base', 'HEAD', 'master');
    assert.equal(lines[0], `Change of ${base} on branch ${BRANCH}, from master (${baseCommit.slice(0, 12)})`);
    const changed = git(change, 'diff', '--name-only', `${baseCommit}...HEAD`).split('\n');
    assert.match(lines[1]!, new RegExp(`^ {2}${changed.length} files changed, \\+\\d+ −\\d+; tests: test/json\\.test\\.js$`));
    const listed = lines.slice(2, 2 + changed.length).map((l) => l.trim().split(/\s+/).slice(0, 3).join(' '));
    assert.deepEqual(listed.slice(0, 3), ['code M src/cli.js', 'code M src/format.js', 'test A test/json.test.js'], 'code first, then the tests it added');
    assert.ok(
      listed.slice(3).every((l) => /^doc A docs\/changes\/1-add-json-flag\//.test(l)),
      listed.join('\n'),
    );
    // Each file's patch, as git has it against the base.
    const patch = git(change, 'diff', '--no-color', `${baseCommit}...HEAD`, '--', 'src/format.js');
    assert.ok(shown.stdout.includes(patch), 'the patch of src/format.js, whole');
    assert.match(shown.stdout, /^\+export function formatJson/m);

    assert.equal(commandOf(shown.stdout, 'Review it:'), `git -C ${base} diff ${baseCommit.slice(0, 12)}...${BRANCH}`);
    const json = await sopworks(['review', change, '--diff', '--json'], { cwd: out });
    assert.equal(json.code, 2, 'no JSON form: git has it for a script');
    assert.match(json.stderr, new RegExp(`git -C ${base} diff --numstat ${baseCommit.slice(0, 12)}\\.\\.\\.${BRANCH}`));
  });

  it('keeps the mode of each file it edits: an executable of the base stays executable on the branch', async () => {
    const baseCommit = git(change, 'merge-base', 'HEAD', 'master');
    const edited = git(change, 'diff', '--name-only', '--diff-filter=M', `${baseCommit}...HEAD`).split('\n');
    const modeOf = (commit: string, file: string) => git(change, 'ls-tree', commit, '--', file).split(/\s/)[0];
    const executables = edited.filter((file) => modeOf(baseCommit, file) === '100755');
    assert.ok(executables.length > 0, `the demo's change edits an executable of its base: ${edited.join(', ')}`);
    for (const file of edited) assert.equal(modeOf('HEAD', file), modeOf(baseCommit, file), `${file} keeps its mode`);
    assert.doesNotMatch(git(change, 'diff', '--summary', `${baseCommit}...HEAD`), /mode change/);
  });

  it('review --diff of a run that is not a change says so (exit 2) and what shows its work', async () => {
    const refused = await sopworks(['review', base, '--diff'], { cwd: out });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /is not a change run \(made by `sopworks change`\): it has no base to compare with/);
    assert.match(refused.stderr, new RegExp(`git -C ${base} log -p`));
  });

  describe('on the workbench', () => {
    let server: ReviewServer;
    let browser: Browser;
    before(async function () {
      requireSystem(this, CHROMIUM);
      [server, browser] = await Promise.all([startReviewServer({ dir: out, port: 0, host: '127.0.0.1' }), launchBrowser()]);
    });
    after(async () => {
      await browser?.close();
      await server?.close();
    });

    it("the change's page shows its diff file by file, the tests it added, the branch and the commands; the base's page links to it", async () => {
      for (const width of [1280, 390]) {
        const context = await browser.newContext({ viewport: { width, height: width > 500 ? 900 : 844 } });
        const page = await context.newPage();
        await page.goto(`${server.url}runs/${CHANGE}`);
        await page.waitForSelector('#change:not([hidden]) .change-file');
        assert.match(await page.locator('#change h2').innerText(), /The change, against its base/);
        assert.match(await page.locator('#change .change-of').innerText(), new RegExp(`A change of wordfreq on the branch ${BRANCH}, from master`));
        assert.equal(await page.locator('#change .change-of a').getAttribute('href'), '/runs/wordfreq', 'the base run, linked');
        const changed = git(change, 'diff', '--name-only', 'master...HEAD').split('\n').length;
        assert.match(
          await page.locator('#change .change-totals').innerText(),
          new RegExp(`${changed} files changed, \\+\\d+ −\\d+; 1 test file: test/json\\.test\\.js\\.`),
        );
        const files = await page
          .locator('#change .change-file')
          .evaluateAll((cards) =>
            cards.map((card: any) => [card.querySelector('summary code').textContent, card.dataset.kind, card.dataset.status, card.open]),
          );
        assert.deepEqual(files.slice(0, 3), [
          ['src/cli.js', 'code', 'modified', true],
          ['src/format.js', 'code', 'modified', true],
          ['test/json.test.js', 'test', 'added', true],
        ]);
        assert.ok(
          files.slice(3).every(([, kind, , open]) => kind === 'document' && open === false),
          'its documents, folded',
        );
        const added = await page.locator('#change .change-file[data-kind="test"] pre.diff span.add').allInnerTexts();
        assert.ok(added.length > 10 && added.every((line) => line.startsWith('+')), 'the test file, every line added');
        const commands = await page.locator('#change .commands').innerText();
        assert.match(commands, new RegExp(`Merge it\\s+git -C ${out}/wordfreq merge ${BRANCH}`));
        assert.match(commands, new RegExp(`Clean up\\s+git -C ${out}/wordfreq worktree remove ${out}/${CHANGE} && git -C ${out}/wordfreq branch -d ${BRANCH}`));
        assert.deepEqual(await overflowing(page), [], `the change's page at ${width} px`);
        if (width === 1280) {
          const serious = (await new AxeBuilder({ page }).analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
          assert.deepEqual(
            serious.map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ')}`),
            [],
          );
        }
        await page.goto(`${server.url}runs/wordfreq`);
        await page.waitForSelector('#change:not([hidden]) .changes-made a');
        assert.match(await page.locator('#change h2').innerText(), /Changes made of this run/);
        assert.match(await page.locator('#change .changes-made').innerText(), new RegExp(`${CHANGE} on ${BRANCH} — done`));
        assert.equal(await page.locator('#change .changes-made a').getAttribute('href'), `/runs/${CHANGE}`);
        assert.deepEqual(await overflowing(page), [], `the base's page at ${width} px`);
        await context.close();
      }
    });
  });

  // Last: it merges the change and removes its work tree.
  describe('the commands it prints', () => {
    it('merge the change into its base and remove its work tree and branch, typed as they are', async () => {
      const shown = (await sopworks(['review', change, '--diff'], { cwd: out })).stdout;
      execFileSync('sh', ['-c', commandOf(shown, 'Merge it:')], { cwd: out, stdio: 'pipe' });
      assert.match(await fs.readFile(path.join(base, 'src', 'format.js'), 'utf8'), /export function formatJson/, 'merged into master');
      execFileSync('sh', ['-c', commandOf(shown, 'Clean up:')], { cwd: out, stdio: 'pipe' });
      await assert.rejects(fs.access(change), 'the work tree is removed');
      assert.equal(git(base, 'branch', '--list', BRANCH), '', 'the branch is deleted');
      assert.equal(git(base, 'worktree', 'list').split('\n').length, 1);
    });
  });
});
