/**
 * Parallel engineering: the Engineer writes independent files at once, yet the repository history and
 * the board are the same whatever the concurrency — commits in dependency order with a stable tie-break.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { readRunRecord } from '../../src/company/index.ts';
import { loadRoleProfile, reviewerOf } from '../../src/engine/roles/index.ts';
import { readAppendLog } from '../../src/ground/files/index.ts';
import { ROLES } from '../helpers/paths.ts';
import { type CompanyRun, demoScenario, runScenario } from '../helpers/run-company.ts';
import { removeTempDirs } from '../helpers/temp-dir.ts';

const exec = promisify(execFile);
const git = async (cwd: string, ...args: string[]) => (await exec('git', args, { cwd })).stdout.trim();

interface Exchange {
  role: string;
  action: string;
  key: string | null;
}

async function history(run: CompanyRun) {
  const { records } = await readAppendLog(path.join(run.project, '.sopworks', 'board.jsonl'));
  return {
    tree: await git(run.project, 'rev-parse', 'HEAD^{tree}'),
    subjects: await git(run.project, 'log', '--reverse', '--format=%s'),
    board: (records as { id: string; type: string; payload: { path?: string } }[]).map((m) => `${m.id} ${m.type} ${m.payload.path ?? ''}`),
  };
}

const engineerCalls = async (run: CompanyRun): Promise<string[]> =>
  ((await readAppendLog(path.join(run.project, '.sopworks', 'exchanges.jsonl'))).records as Exchange[])
    .filter((e) => e.role === 'engineer' && (e.action === 'write_file' || e.action === 'review_file'))
    .map((e) => `${e.action} ${e.key}`);

describe('parallel engineering', function () {
  this.timeout(180_000);
  let one: CompanyRun;
  let four: CompanyRun;
  let team: CompanyRun;

  before(async () => {
    const scenario = await demoScenario();
    // A small latency per reply, so that concurrent calls really overlap.
    one = await runScenario(scenario, { concurrency: 1, latencyMs: 20 });
    four = await runScenario(scenario, { concurrency: 4, latencyMs: 20 });
    team = await runScenario(scenario, { concurrency: 4, engineers: 3, latencyMs: 20 });
  });
  after(removeTempDirs);

  it('ends done both ways, and keeps the concurrency in run.json for resume', async () => {
    assert.equal(one.result.outcome, 'done', one.result.reason);
    assert.equal(four.result.outcome, 'done', four.result.reason);
    assert.equal((await readRunRecord(path.join(four.project, '.sopworks'))).concurrency, 4);
    assert.equal((await readRunRecord(path.join(one.project, '.sopworks'))).concurrency, 1);
  });

  it('writes one file at a time at concurrency 1: each is reviewed before the next is written', async () => {
    const calls = await engineerCalls(one);
    assert.deepEqual(calls.slice(0, 4), ['write_file package.json', 'review_file package.json', 'write_file src/tokenize.js', 'review_file src/tokenize.js']);
  });

  it('writes the files that depend on nothing at once at concurrency 4, before any is reviewed', async () => {
    const calls = await engineerCalls(four);
    assert.deepEqual(calls.slice(0, 4).sort(), [
      'write_file package.json',
      'write_file src/files.js',
      'write_file src/format.js',
      'write_file src/tokenize.js',
    ]);
    // src/count.js needs src/tokenize.js, and src/cli.js needs three files: neither is written before those are reviewed.
    assert.ok(calls.indexOf('write_file src/count.js') > calls.indexOf('review_file src/tokenize.js'));
    for (const dep of ['src/files.js', 'src/count.js', 'src/format.js'])
      assert.ok(calls.indexOf('write_file src/cli.js') > calls.indexOf(`review_file ${dep}`));
  });

  it('yields the same tree, the same commits in the same order and the same board whatever the concurrency', async () => {
    const [a, b] = [await history(one), await history(four)];
    assert.deepEqual(b, a);
    assert.match(
      b.subjects,
      /feat: add package\.json\nfeat: add src\/tokenize\.js\nfeat: add src\/count\.js\nfeat: add src\/files\.js\nfeat: add src\/format\.js\nfeat: add src\/cli\.js/,
    );
  });

  interface Logged extends Exchange {
    messages: { role: string; content: string }[];
  }
  const exchanges = async (run: CompanyRun) => (await readAppendLog(path.join(run.project, '.sopworks', 'exchanges.jsonl'))).records as Logged[];
  /** The role's part of a request says who is asked (the system prompt is the same for everyone). */
  const askedOf = (e: Logged) => e.messages.find((m) => m.role === 'user')!.content;
  const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const line = (text: string) => new RegExp(`^${escaped(text)}$`, 'm');

  describe('with one Engineer (the default)', () => {
    it("has every file reviewed by the role's second person, who writes none: the review prompts say whose work it is", async () => {
      const writer = await loadRoleProfile(ROLES, 'engineer');
      const reviewer = reviewerOf(writer);
      assert.ok(writer.reviewer?.goal, "the shipped Engineer's role.yaml names its reviewer's goal");
      const calls = (await exchanges(one)).filter((e) => e.role === 'engineer');
      const reviews = calls.filter((e) => e.action.startsWith('review_'));
      assert.ok(reviews.some((e) => e.action === 'review_file') && reviews.some((e) => e.action === 'review_fix'), 'files and fixes are reviewed');
      for (const review of reviews) {
        const asked = askedOf(review);
        assert.match(asked, line(`You are ${reviewer.name}, the ${reviewer.title}.`), `${review.action} ${review.key}`);
        assert.match(
          asked,
          line(`You review the work of ${writer.name}, the ${writer.title}, who wrote it: it is theirs, not yours, and they revise it from your review.`),
        );
        assert.match(asked, line(`Your goal: ${writer.reviewer!.goal}`));
        assert.ok(!asked.includes(writer.goal), `${review.action} ${review.key} is not given the writer's goal`);
        // A file's review names the writer over the file it opens with; a fix's, with the file in the same line.
        const whose =
          review.action === 'review_fix'
            ? `^Review this fix of \`${escaped(review.key!)}\`, which ${escaped(writer.name)} made`
            : `^Review the file below, which ${escaped(writer.name)} wrote,[^]*^## The file to review: ${escaped(review.key!)}$`;
        assert.match(asked, new RegExp(whose, 'm'), `${review.action} ${review.key}`);
      }
      for (const write of calls.filter((e) => !e.action.startsWith('review_'))) {
        assert.match(askedOf(write), line(`You are ${writer.name}, the ${writer.title}.`), `${write.action} ${write.key} is the writer's`);
        assert.doesNotMatch(askedOf(write), /^You review the work of/m);
      }
    });

    it("names the writer and the reviewer apart in each Code message, and the commits stay the writer's", async () => {
      const writer = await loadRoleProfile(ROLES, 'engineer');
      const reviewer = reviewerOf(writer);
      const { records } = await readAppendLog(path.join(one.project, '.sopworks', 'board.jsonl'));
      const code = (records as { type: string; payload: { author: unknown; reviewer: unknown } }[]).filter((m) => m.type === 'Code');
      assert.ok(code.length > 0);
      for (const { payload } of code) {
        assert.deepEqual(payload.author, { name: writer.title, email: writer.email });
        assert.deepEqual(payload.reviewer, { name: reviewer.title, email: reviewer.email });
      }
      const authors = new Set(
        (await git(one.project, 'log', '--format=%s|%an <%ae>'))
          .split('\n')
          .filter((l) => /^(feat: add|fix:) /.test(l))
          .map((l) => l.split('|')[1]),
      );
      assert.deepEqual([...authors], [`${writer.title} <${writer.email}>`]);
    });
  });

  describe('with several Engineers (--engineers 3)', () => {
    const taskOrder = async (run: CompanyRun) => {
      const { records } = await readAppendLog(path.join(run.project, '.sopworks', 'board.jsonl'));
      return (records as { type: string; payload: { tasks?: { file: string }[] } }[]).find((m) => m.type === 'TaskGraph')!.payload.tasks!.map((t) => t.file);
    };
    /** The files are dealt out in task-graph order; the next Engineer reviews. */
    const expected = (files: string[]) =>
      new Map(files.map((file, i) => [file, { writer: `Engineer ${(i % 3) + 1}`, reviewer: `Engineer ${((i + 1) % 3) + 1}` }]));

    it('ends done with the same tree as one Engineer, and keeps the number in run.json for resume', async () => {
      assert.equal(team.result.outcome, 'done', team.result.reason);
      assert.equal((await readRunRecord(path.join(team.project, '.sopworks'))).engineers, 3);
      assert.equal((await history(team)).tree, (await history(one)).tree);
    });

    it('shares the files among the Engineers: each file is committed by its writer, fixes too', async () => {
      const who = expected(await taskOrder(team));
      const log = (await git(team.project, 'log', '--reverse', '--format=%s|%an <%ae>')).split('\n');
      const fileCommits = log.filter((line) => /^(feat: add|fix:) /.test(line));
      assert.ok(fileCommits.length >= who.size + 1, 'every file, and at least one fix');
      for (const line of fileCommits) {
        const [subject, author] = line.split('|') as [string, string];
        const file = subject.replace(/^(feat: add|fix:) /, '');
        const writer = who.get(file)!.writer;
        assert.equal(author, `${writer} <engineer-${writer.split(' ')[1]}@sopworks.local>`, line);
      }
      assert.deepEqual(new Set(fileCommits.map((line) => line.split('|')[1])).size, 3, 'all three Engineers wrote files');
      // Everyone else's commits are theirs as before.
      assert.ok(log.some((line) => line === 'docs: system design|Architect <architect@sopworks.local>'));
    });

    it('has each file reviewed by another Engineer than the one who wrote it: the prompts say who is asked', async () => {
      const who = expected(await taskOrder(team));
      const calls = (await exchanges(team)).filter((e) => e.role === 'engineer');
      const profile = await loadRoleProfile(ROLES, 'engineer');
      for (const [file, { writer, reviewer }] of who) {
        const write = calls.find((e) => e.action === 'write_file' && e.key === file)!;
        const review = calls.find((e) => e.action === 'review_file' && e.key === file)!;
        assert.match(askedOf(write), new RegExp(`^You are [^,]+, the ${writer}\\.$`, 'm'), `${file} is written by ${writer}`);
        assert.match(askedOf(review), new RegExp(`^You are [^,]+, the ${reviewer}\\.$`, 'm'), `${file} is reviewed by ${reviewer}`);
        assert.match(askedOf(review), new RegExp(`^You review the work of [^,]+, the ${writer}, who wrote it:`, 'm'), `${file}'s review names its writer`);
        assert.ok(!askedOf(review).includes(profile.goal) && askedOf(review).includes(profile.reviewer!.goal!), `${file}'s reviewer has a reviewer's goal`);
      }
      const fix = calls.find((e) => e.action === 'fix_file')!;
      assert.match(askedOf(fix), new RegExp(`^You are [^,]+, the ${who.get(fix.key!)!.writer}\\.$`, 'm'), 'a file is fixed by the Engineer who wrote it');
    });

    it('names the writer and the reviewer in each Code message', async () => {
      const who = expected(await taskOrder(team));
      const { records } = await readAppendLog(path.join(team.project, '.sopworks', 'board.jsonl'));
      const code = (records as { type: string; payload: { path: string; author: { name: string }; reviewer: { name: string } } }[]).filter(
        (m) => m.type === 'Code',
      );
      assert.ok(code.length > 0);
      for (const { payload } of code)
        assert.deepEqual([payload.author.name, payload.reviewer.name], [who.get(payload.path)!.writer, who.get(payload.path)!.reviewer]);
    });
  });
});
