/**
 * SOPs and prompts are data: a new role, a changed bound, a removed step and an edited template each
 * change what the company does — with YAML and Handlebars edits only, on the demo scenario.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Scenario } from '../../src/capabilities/model/index.ts';
import { readAppendLog } from '../../src/ground/files/index.ts';
import { ROLES, ROOT, SOPS } from '../helpers/paths.ts';
import { type CompanyRun, demoScenario, onlyWhenAsked, runScenario } from '../helpers/run-company.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const exec = promisify(execFile);
const git = async (cwd: string, ...args: string[]) => (await exec('git', args, { cwd })).stdout;
const WRITER_FIXTURE = path.join(ROOT, 'test', 'fixtures', 'sop-technical-writer');

interface Folders {
  sops: string;
  roles: string;
}

/** A copy of the shipped sops/ and roles/ to edit. */
async function copyDefaults(): Promise<Folders> {
  const dir = await tempDir('sopworks-extend-');
  const folders = { sops: path.join(dir, 'sops'), roles: path.join(dir, 'roles') };
  await fs.cp(SOPS, folders.sops, { recursive: true });
  await fs.cp(ROLES, folders.roles, { recursive: true });
  return folders;
}

/** Replaces `from`, which must occur exactly once, in a file. */
async function edit(file: string, from: string, to: string): Promise<void> {
  const text = await fs.readFile(file, 'utf8');
  assert.equal(text.split(from).length, 2, `"${from}" must occur exactly once in ${file}`);
  await fs.writeFile(file, text.replace(from, to));
}

interface Exchange {
  role: string;
  action: string;
  key: string | null;
  messages: { role: string; content: string }[];
}

async function exchanges(run: CompanyRun): Promise<Exchange[]> {
  return (await readAppendLog(path.join(run.project, '.sopworks', 'exchanges.jsonl'))).records as Exchange[];
}

async function boardTypes(run: CompanyRun): Promise<string[]> {
  const { records } = await readAppendLog(path.join(run.project, '.sopworks', 'board.jsonl'));
  return (records as { type: string }[]).map((m) => m.type);
}

/** The scripted replies no call asked for, sorted. */
const unused = (run: CompanyRun) =>
  run.provider
    .unused()
    .filter((r) => !onlyWhenAsked(r))
    .map((r) => `${r.role}/${r.action}`)
    .sort();
const actionsOf = async (run: CompanyRun, role: string) => (await exchanges(run)).filter((e) => e.role === role).map((e) => e.action);

describe('SOPs and prompts as data', function () {
  this.timeout(120_000);
  after(removeTempDirs);

  describe('a fifth role, added with YAML and templates only', () => {
    const GUIDE =
      '# wordfreq user guide\n\nRun `node src/cli.js FILE...` to count the words in your files.\n\nUse `--top N` to see only the N most frequent words.\n';
    let run: CompanyRun;

    before(async () => {
      const folders = await copyDefaults();
      await fs.cp(path.join(WRITER_FIXTURE, 'sops'), folders.sops, { recursive: true });
      await fs.cp(path.join(WRITER_FIXTURE, 'roles'), folders.roles, { recursive: true });
      await fs.appendFile(path.join(folders.sops, 'company.yaml'), '  - id: technical-writer\n    watches: [CodeComplete]\n');
      const scenario = await demoScenario();
      const reply: Scenario['replies'][number] = {
        role: 'technical-writer',
        action: 'write_user_guide',
        key: 'docs/USER_GUIDE.md',
        lang: 'markdown',
        code: GUIDE,
      };
      run = await runScenario({ ...scenario, replies: [...scenario.replies, reply] }, folders);
    });

    it('runs in the company: the run still ends done, and every scripted reply is used', () => {
      assert.equal(run.result.outcome, 'done', run.result.reason);
      assert.deepEqual(unused(run), []);
    });

    it('commits its artifact, authored by the new role', async () => {
      assert.equal(await fs.readFile(path.join(run.project, 'docs', 'USER_GUIDE.md'), 'utf8'), GUIDE);
      const log = await git(run.project, 'log', '--format=%an <%ae>|%s', '--', 'docs/USER_GUIDE.md');
      assert.equal(log.trim(), 'Technical Writer <technical-writer@sopworks.local>|docs: docs/USER_GUIDE.md');
      assert.equal(await git(run.project, 'status', '--porcelain'), '');
    });

    it('is sent the work it watches and renders its own template with the views it asked for', async () => {
      const types = await boardTypes(run);
      assert.equal(types.filter((t) => t === 'Document').length, 1, 'one guide, although the code was completed twice');
      const [call, ...more] = (await exchanges(run)).filter((e) => e.role === 'technical-writer');
      assert.equal(more.length, 0);
      assert.equal(call!.key, 'docs/USER_GUIDE.md');
      const prompt = call!.messages[1]!.content;
      // After the run's documents, who the role is, then its own template.
      assert.match(prompt, /^# The run's documents\n[\s\S]*\n# Your part\nYou are Erin, the Technical Writer\./);
      assert.match(prompt, /^Write the user guide of wordfreq as `docs\/USER_GUIDE\.md`, in Markdown\./m);
      assert.match(prompt, /## How it is run\n`node src\/cli\.js --top 10 FILE\.\.\.`\n/);
      assert.match(prompt, /### src\/count\.js\n```/, 'the committed source files, through the shared code-files partial');
      assert.match(
        prompt,
        /Reply with the complete content of the file in exactly one fenced code block[\s\S]*\nThe file to write: `docs\/USER_GUIDE\.md`\.\n/,
      );
    });
  });

  describe('a bound changed in YAML changes what the run does', () => {
    it('the Product Manager may revise 0 times: the first draft is published as it is', async () => {
      const folders = await copyDefaults();
      await edit(path.join(folders.sops, 'product-manager.yaml'), 'params: { counter: revisions, max: 2 }', 'params: { counter: revisions, max: 0 }');
      const scenario = await demoScenario();
      const run = await runScenario(scenario, folders);
      assert.equal(run.result.outcome, 'done', run.result.reason);
      assert.deepEqual(await actionsOf(run, 'product-manager'), ['write_prd', 'review_prd']);
      assert.deepEqual(unused(run), ['product-manager/review_prd', 'product-manager/revise_prd']);
      const firstDraft = scenario.replies.find((r) => r.action === 'write_prd')!.json as { acceptanceCriteria: string[] };
      const prd = await fs.readFile(path.join(run.project, 'docs', 'prd.md'), 'utf8');
      for (const criterion of firstDraft.acceptanceCriteria) assert.ok(prd.includes(criterion), `the unrevised criterion "${criterion}" is committed`);
      const [requirements, open] = prd.split('## Open review issues');
      assert.equal(requirements!.includes('case-insensitive'), false, 'the revision the review asked for never happened');
      assert.match(open ?? '', /case-insensitively/, "the review's issues are committed with the PRD as open issues");
    });

    it('QA gets one round: the first failing round ends the run, with no bug report', async () => {
      const folders = await copyDefaults();
      const qa = path.join(folders.sops, 'qa.yaml');
      await edit(qa, 'params: { counter: rounds, max: 3 }', 'params: { counter: rounds, max: 1 }');
      await edit(qa, 'reason: tests still fail after 3 rounds', 'reason: tests still fail after 1 round');
      const run = await runScenario(await demoScenario(), folders);
      assert.equal(run.result.outcome, 'failed');
      assert.match(run.result.reason, /^tests still fail after 1 round: failing tests: /);
      const types = await boardTypes(run);
      assert.equal(types.filter((t) => t === 'TestReport').length, 1);
      assert.equal(types.includes('BugReport'), false);
    });
  });

  describe('a step removed from a SOP changes what the run does', () => {
    it('without its self-review, the Product Manager publishes its first draft in one call', async () => {
      const folders = await copyDefaults();
      const file = path.join(folders.sops, 'product-manager.yaml');
      const text = await fs.readFile(file, 'utf8');
      // The review states go: the way to them leads on to the approval gate (which passes without --approve).
      const cut = text
        .replace('      - { target: reviewing }\n  reviewing:', '      - { target: approving }\n  reviewing:')
        .replace(/\n {2}reviewing:[\s\S]*?\n {2}deciding:[\s\S]*?(?=\n {2}# With `--approve prd`)/, '');
      assert.doesNotMatch(cut, /review_prd|target: reviewing|\n {2}deciding:/, 'no trace of the review is left in the SOP');
      assert.notEqual(cut, text);
      await fs.writeFile(file, cut);

      const run = await runScenario(await demoScenario(), folders);
      assert.equal(run.result.outcome, 'done', run.result.reason);
      assert.deepEqual(await actionsOf(run, 'product-manager'), ['write_prd']);
      assert.deepEqual(unused(run), ['product-manager/review_prd', 'product-manager/review_prd', 'product-manager/revise_prd']);
      const subjects = (await git(run.project, 'log', '--reverse', '--format=%s')).trim().split('\n');
      assert.equal(subjects[1], 'docs: product requirements for wordfreq');
    });
  });

  describe('a template edited changes the prompt the model receives', () => {
    it('the new sentence reaches the model, in the call of that step only', async () => {
      const folders = await copyDefaults();
      const sentence = 'Write it for {{role.name}}, who has five minutes to read it.';
      await fs.appendFile(path.join(folders.roles, 'product-manager', 'write_prd.hbs'), `\n${sentence}\n`);
      const run = await runScenario(await demoScenario(), folders);
      assert.equal(run.result.outcome, 'done', run.result.reason);
      const calls = await exchanges(run);
      const writePrd = calls.find((c) => c.action === 'write_prd')!;
      assert.match(writePrd.messages[1]!.content, /^Write it for Alice, who has five minutes to read it\.$/m);
      assert.equal(calls.filter((c) => c.messages.some((m) => m.content.includes('five minutes'))).length, 1);
    });
  });
});
