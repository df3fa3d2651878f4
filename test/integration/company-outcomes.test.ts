/**
 * How runs end when things go wrong: every loop is bounded, a loop that makes no progress is stopped
 * with a diagnosis, and a company with nothing left to do never hangs.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { Scenario } from '../../src/capabilities/model/index.ts';
import { readAppendLog } from '../../src/ground/files/index.ts';
import { ROLES, ROOT, SOPS } from '../helpers/paths.ts';
import { demoScenario, replaceReply, runScenario } from '../helpers/run-company.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const BUGGY_TOKENIZE = 'export function tokenize(text) {\n  return text.split(/\\s+/).filter((word) => word.length > 0);\n}\n';

describe('run outcomes', function () {
  this.timeout(60_000);
  after(removeTempDirs);

  it('stops when the same tests fail twice in a row, naming them', async () => {
    const scenario = replaceReply(
      await demoScenario(),
      { role: 'engineer', action: 'fix_file' },
      {
        role: 'engineer',
        action: 'fix_file',
        key: 'src/tokenize.js',
        code: BUGGY_TOKENIZE,
        lang: 'js',
      },
    );
    const { result, project } = await runScenario(scenario);
    assert.equal(result.outcome, 'failed');
    assert.match(result.reason, /^the same tests failed twice in a row: failing tests: AC-2: tokenize lower-cases words and drops punctuation;/);
    const { records } = await readAppendLog(path.join(project, '.sopworks', 'board.jsonl'));
    assert.equal(records.filter((m) => (m as { type: string }).type === 'TestReport').length, 2);
    assert.equal(records.filter((m) => (m as { type: string }).type === 'BugReport').length, 1, 'no second bug report after a repeated failure');
  });

  it("rewrites a test of QA's own that cannot hold, sending no source file to the Engineer, and ends done", async () => {
    const scenario = Scenario.parse(parse(await fs.readFile(path.join(ROOT, 'examples', 'leapyear-manual.yaml'), 'utf8')));
    const tests = scenario.replies.find((r) => r.role === 'qa' && r.action === 'write_tests')!;
    // 1900 is no leap year: QA's first tests expect it to be one, and the code is right.
    const wrong = { ...tests, reply: tests.reply!.replace('assert.equal(isLeapYear(1900), false);', 'assert.equal(isLeapYear(1900), true);') };
    assert.notEqual(wrong.reply, tests.reply);
    const triage = {
      role: 'qa',
      action: 'write_bug_report',
      json: {
        summary: 'The test expects 1900 to be a leap year; the Gregorian rule says it is not, as isLeapYear does.',
        failingTests: ['isLeapYear follows the Gregorian rule'],
        files: [],
        ownTests: [{ path: 'test/cli.test.js', problem: 'isLeapYear(1900) must be false' }],
      },
    };
    const replies = scenario.replies.flatMap((r) => (r === tests ? [wrong, triage, { ...tests, action: 'fix_tests' }] : [r]));
    const { result, project } = await runScenario({ ...scenario, replies });
    assert.equal(result.outcome, 'done', result.reason);
    const { records } = await readAppendLog(path.join(project, '.sopworks', 'board.jsonl'));
    const messages = records as { type: string; payload: { passed?: boolean; summary?: string } }[];
    assert.deepEqual(
      messages
        .filter((m) => m.type === 'TestReport')
        .map((m) => m.payload.passed)
        .slice(0, 2),
      [false, true],
      'a failed round, then one that passed',
    );
    // The scenario's one bug report is the README's rejected manual check, later; none came of the triage.
    assert.ok(!messages.some((m) => m.type === 'BugReport' && m.payload.summary === triage.json.summary), 'no source file went to the Engineer');
    assert.equal(messages.filter((m) => m.type === 'Tests').length, 2, 'the tests, then the rewritten tests');
    const exchanges = (await readAppendLog(path.join(project, '.sopworks', 'exchanges.jsonl'))).records as {
      action: string;
      messages: { content: string }[];
    }[];
    const fix = exchanges.find((e) => e.action === 'fix_tests')!.messages.at(-1)!.content;
    assert.match(fix, /- `test\/cli\.test\.js`: isLeapYear\(1900\) must be false/);
    assert.match(await fs.readFile(path.join(project, 'test', 'cli.test.js'), 'utf8'), /isLeapYear\(1900\), false/);
  });

  it('sends an invalid task graph back to the Architect with the problems, and gives up after the bound', async () => {
    let scenario = await demoScenario();
    const bad = scenario.replies.find((r) => r.action === 'write_tasks')!;
    const tasks = (bad.json as { tasks: { description: string }[] }).tasks;
    // Two corrections that are still wrong, each differently worded (the same reply twice would be a loop).
    const stillBad = (n: number) => ({
      ...bad,
      action: 'fix_tasks',
      json: { tasks: tasks.map((t) => ({ ...t, description: `${t.description} (attempt ${n})` })) },
    });
    scenario = replaceReply(scenario, { role: 'architect', action: 'fix_tasks' }, stillBad(1));
    scenario = { ...scenario, replies: [...scenario.replies, stillBad(2)] };
    const { result, project } = await runScenario(scenario);
    assert.equal(result.outcome, 'failed');
    assert.match(
      result.reason,
      /the task graph is still invalid after 2 corrections: .*missing file "package\.json": the design lists it but no task writes it/s,
    );
    const { records } = await readAppendLog(path.join(project, '.sopworks', 'exchanges.jsonl'));
    const fixes = (records as { action: string; messages: { content: string }[] }[]).filter((r) => r.action === 'fix_tasks');
    assert.equal(fixes.length, 2);
    assert.match(
      fixes[0]!.messages[1]!.content,
      /Your task graph was rejected\. [^\n]*\n\n### Your latest answer\nThe task graph is invalid:\n- missing file "package\.json"/,
    );
    // What was made before the failure is kept: the design was committed before its task graph was planned.
    assert.ok(result.messages.some((m) => m.type === 'Design') && !result.messages.some((m) => m.type === 'TaskGraph'));
    assert.match(await fs.readFile(path.join(project, 'docs', 'design.md'), 'utf8'), /— System design/);
    // The second correction is shown both answers' problems, not only the last.
    assert.match(
      fixes[1]!.messages[1]!.content,
      /### An earlier answer\nThe task graph is invalid:\n- missing file "package\.json"[\s\S]*### Your latest answer\nThe task graph is invalid:\n- missing file "package\.json"/,
    );
  });

  it('stops when the model gives the same reply to the same call twice in a row, naming the step', async () => {
    let scenario = await demoScenario();
    const bad = scenario.replies.find((r) => r.action === 'write_tasks')!;
    scenario = replaceReply(scenario, { role: 'architect', action: 'fix_tasks' }, { ...bad, action: 'fix_tasks' });
    scenario = { ...scenario, replies: [...scenario.replies, { ...bad, action: 'fix_tasks' }] };
    const { result } = await runScenario(scenario);
    assert.equal(result.outcome, 'failed');
    assert.match(
      result.reason,
      /^architect failed in step "replanning": The model gave the same reply to \{role: architect, action: fix_tasks, key: \(none\)\} twice in a row/,
    );
  });

  it('stops a review that flip-flops: issues A, then B, then A again for one file', async () => {
    const scenario = await demoScenario();
    const isCli = (r: { role: string; key?: string; action: string }, action: string) => r.role === 'engineer' && r.key === 'src/cli.js' && r.action === action;
    const review = (issue: string) => ({ role: 'engineer', action: 'review_file', key: 'src/cli.js', json: { approved: false, issues: [issue] } });
    const revise = (n: number) => ({ role: 'engineer', action: 'revise_file', key: 'src/cli.js', code: `export const version = ${n};\n` });
    const replies = [
      ...scenario.replies.filter((r) => !isCli(r, 'review_file') && !isCli(r, 'revise_file')),
      review('exits 0 on errors'),
      revise(1),
      review('prints a stack trace'),
      revise(2),
      review('exits 0 on errors'),
    ];
    const { result, project } = await runScenario({ ...scenario, replies });
    assert.equal(result.outcome, 'failed');
    assert.match(result.reason, /^the review of this file repeats itself instead of converging \(a loop\): src\/cli\.js$/);
    const { stdout } = await promisify(execFile)('git', ['log', '--format=%s'], { cwd: project });
    assert.doesNotMatch(stdout, /add src\/cli\.js/, 'the looping file is not committed');
  });

  it('reports a stall, never hangs, when work is handed to a role nobody hired', async () => {
    const dir = await tempDir();
    const sops = path.join(dir, 'sops');
    await fs.cp(SOPS, sops, { recursive: true });
    const company = await fs.readFile(path.join(sops, 'company.yaml'), 'utf8');
    await fs.writeFile(path.join(sops, 'company.yaml'), company.replace(/  - id: qa\n    watches: \[CodeComplete, ManualVerdicts\]\n/, ''));
    const scenario = await demoScenario();
    const { result } = await runScenario({ ...scenario, replies: scenario.replies.filter((r) => r.role !== 'qa') }, { sops, roles: ROLES });
    assert.equal(result.outcome, 'failed');
    assert.match(result.reason, /the company stalled: no role is at work and no outcome was reached \(last message: CodeComplete msg-\d+ from engineer\)/);
  });

  it('fails the run with the reason when a role hits an error it has no step for', async () => {
    const scenario = await demoScenario();
    const { result, project } = await runScenario({ ...scenario, replies: scenario.replies.filter((r) => r.action !== 'write_design') });
    assert.equal(result.outcome, 'failed');
    assert.match(
      result.reason,
      /^architect failed in step "designing": The scenario has no reply left for \{role: architect, action: write_design, key: \(none\)\}/,
    );
    // What was made before is kept.
    await fs.access(path.join(project, 'docs', 'prd.md'));
  });
});
