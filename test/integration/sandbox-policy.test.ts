/**
 * The authorization policy in a whole run, offline on the demo scenario: a design file the Engineer may
 * not write and a test command QA may not run go back to the design step with the reason, every error
 * of the loop shown; a SOP whose checks cannot both be met fails as the SOP's fault, not the model's; a
 * test file QA may not write goes back to QA; the tests run in the sandbox and the TestReport says how.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Scenario } from '../../src/capabilities/model/index.ts';
import type { TestReport } from '../../src/documents/index.ts';
import { readAppendLog } from '../../src/ground/files/index.ts';
import { ROLES, SOPS } from '../helpers/paths.ts';
import { demoScenario, replaceReply, runScenario } from '../helpers/run-company.ts';
import { BUBBLEWRAP, requireSystem } from '../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

type Exchange = { role: string; action: string; ok: boolean; error: string | null; messages: { content: string }[] };

/** The package's sops/ folder with its policy.yaml edited. */
async function sopsWithPolicy(edit: (policy: string) => string): Promise<{ dir: string; file: string }> {
  const dir = path.join(await tempDir(), 'sops');
  await fs.cp(SOPS, dir, { recursive: true });
  const file = path.join(dir, 'policy.yaml');
  await fs.writeFile(file, edit(await fs.readFile(file, 'utf8')));
  return { dir, file };
}

/** The demo's design, as the JSON its write_design reply wraps in prose. */
function demoDesign(scenario: Scenario): Record<string, unknown> {
  const reply = scenario.replies.find((r) => r.action === 'write_design')!.reply!;
  return JSON.parse(/```json\n([\s\S]*?)\n```/.exec(reply)![1]!);
}

/** A fix_design reply: the demo's design, changed. */
const fixDesign = (design: Record<string, unknown>, change: Record<string, unknown> = {}) => ({
  role: 'architect',
  action: 'fix_design',
  json: { ...design, ...change },
});

/** The scenario with `replies` inserted before the first write_tasks. */
function withReplies(scenario: Scenario, replies: Scenario['replies']): Scenario {
  const at = scenario.replies.findIndex((r) => r.action === 'write_tasks');
  return { ...scenario, replies: [...scenario.replies.slice(0, at), ...replies, ...scenario.replies.slice(at)] };
}

async function exchangesOf(project: string): Promise<Exchange[]> {
  return (await readAppendLog(path.join(project, '.sopworks', 'exchanges.jsonl'))).records as Exchange[];
}

describe('the authorization policy in a run', function () {
  this.timeout(60_000);
  before(function () {
    requireSystem(this, BUBBLEWRAP);
  });
  after(removeTempDirs);

  it('runs the tests in the sandbox and records how in the TestReport, not in its committed page (the same on every machine)', async () => {
    const { result, project } = await runScenario(await demoScenario());
    assert.equal(result.outcome, 'done', result.reason);
    const report = result.messages.filter((m) => m.type === 'TestReport').at(-1)!.payload as TestReport;
    assert.equal(report.sandbox?.mode, 'bubblewrap');
    assert.deepEqual([report.sandbox?.limitsHit, report.sandbox?.violations, report.sandbox?.gaps], [[], [], []]);
    const page = await fs.readFile(path.join(project, 'docs', 'test-reports', 'round-2.md'), 'utf8');
    // Nothing was hit or seen: the page says what the tests did, and nothing of the machine they ran on.
    assert.doesNotMatch(page, /Sandbox|bubblewrap|Mode:|Limits/);
    assert.match(page, /^# Test report — round 2: PASSED\n\nCommand: `node --test`/);
  });

  it('sends a design file the Engineer may not write back to the design step, with every error of the loop, and gives up after the bound', async () => {
    const sops = await sopsWithPolicy((policy) => policy.replace('    except:\n      - docs/prd.md', '    except:\n      - src/cli.js\n      - docs/prd.md'));
    const scenario = await demoScenario();
    const design = demoDesign(scenario);
    const { result, project } = await runScenario(
      withReplies(scenario, [fixDesign(design, { summary: `${design.summary} Small.` }), fixDesign(design, { summary: `${design.summary} Smaller.` })]),
      { sops: sops.dir, roles: ROLES },
    );
    assert.equal(result.outcome, 'failed');
    assert.match(
      result.reason,
      /the design is still invalid after 2 corrections: .*a file of the design its writer may not write: engineer may not write "src\/cli\.js": the policy excepts src\/cli\.js/s,
    );
    const exchanges = await exchangesOf(project);
    assert.ok(!exchanges.some((e) => e.action === 'fix_tasks' || e.action === 'write_tasks'), 'the task step is never asked to fix the design');
    const fixes = exchanges.filter((e) => e.action === 'fix_design');
    assert.equal(fixes.length, 2);
    // The second correction shows both answers' errors, not only the last; and every prompt states the rule it broke.
    const second = fixes[1]!.messages[1]!.content;
    assert.match(
      second,
      /### An earlier answer\nThe design is invalid:\n- a file of the design its writer may not write: engineer may not write "src\/cli\.js"/,
    );
    assert.match(
      second,
      /### Your latest answer\nThe design is invalid:\n- a file of the design its writer may not write: engineer may not write "src\/cli\.js"/,
    );
    for (const e of exchanges.filter((x) => x.role === 'architect')) {
      assert.match(
        e.messages[1]!.content,
        /## Rules your reply must meet\n[\s\S]*engineer may write any path, except src\/cli\.js, docs\/prd\.md/,
        `${e.action} states the rule`,
      );
      assert.ok(!e.messages.some((m) => m.content.includes(sops.dir)), `${e.action}: no path of this machine reaches the model`);
    }
    assert.ok(!result.messages.some((m) => m.type === 'Design' || m.type === 'TaskGraph'), 'no refused design reached the board');
  });

  it('sends a test command QA may not run back to the design step, and goes on once the design is corrected', async () => {
    let scenario = await demoScenario();
    const design = scenario.replies.find((r) => r.action === 'write_design')!;
    const shell = { ...design, reply: design.reply!.replace('"node",\n    "--test"', '"sh",\n    "-c",\n    "node --test"') };
    assert.notEqual(shell.reply, design.reply, 'the scenario names the test command as expected');
    scenario = replaceReply(scenario, { role: 'architect', action: 'write_design' }, shell);
    const { result, project } = await runScenario(withReplies(scenario, [fixDesign(demoDesign(scenario), { testCommand: ['node', '--test'] })]));
    assert.equal(result.outcome, 'done', result.reason);
    const fix = (await exchangesOf(project)).find((e) => e.action === 'fix_design')!;
    assert.match(
      fix.messages[1]!.content,
      /the test command is refused: qa may not run "sh -c node --test"\. Allowed by the policy: commands starting with: node;/,
    );
    assert.match(
      fix.messages[1]!.content,
      /`testCommand` is run by qa from the project root: qa runs it as an argv array, no shell, and never one that installs packages/,
    );
    assert.match(await fs.readFile(path.join(project, 'docs', 'design.md'), 'utf8'), /`node --test`/);
    assert.equal(result.messages.filter((m) => m.type === 'Design').length, 1, 'only the corrected design is published');
  });

  it("ends a SOP whose checks cannot both be met as the SOP's fault, not the model's: no correction is asked, the design is kept", async () => {
    // A SOP that checks no design: its task graph must have a task per design file, and the policy refuses one.
    const sops = await sopsWithPolicy((policy) => policy.replace('    except:\n      - docs/prd.md', '    except:\n      - src/cli.js\n      - docs/prd.md'));
    const architect = path.join(sops.dir, 'architect.yaml');
    const sop = await fs.readFile(architect, 'utf8');
    const unchecked = sop.replace(
      'onDone: { target: checkingDesign, actions: [{ type: keep, params: { slot: design } }] }\n  checkingDesign:',
      'onDone: { target: approving, actions: [{ type: keep, params: { slot: design } }] }\n  checkingDesign:',
    );
    assert.notEqual(unchecked, sop);
    await fs.writeFile(architect, unchecked);
    const { result, project } = await runScenario(await demoScenario(), { sops: sops.dir, roles: ROLES });
    assert.equal(result.outcome, 'failed');
    assert.match(
      result.reason,
      /^architect failed in step "checking": No task graph can pass: it must have a task for every file of the design, and the policy refuses some of them \(engineer may not write "src\/cli\.js"/,
    );
    assert.match(result.reason, /This is a fault of the SOP, not of the model/);
    assert.ok(!(await exchangesOf(project)).some((e) => e.action === 'fix_tasks'), 'no correction was asked of the model');
    assert.match(await fs.readFile(path.join(project, 'docs', 'design.md'), 'utf8'), /System design/, 'the design made before the failure is committed');
  });

  it('sends a test file QA may not write back to QA with the reason, then accepts its corrected reply', async () => {
    const scenario = await demoScenario();
    const tests = scenario.replies.find((r) => r.action === 'write_tests')!;
    const sneaky = { ...tests, reply: `${tests.reply}\n\n.github/workflows/ci.yml\n\`\`\`yaml\non: push\n\`\`\`\n` };
    const { result, project } = await runScenario({ ...scenario, replies: scenario.replies.flatMap((r) => (r === tests ? [sneaky, tests] : [r])) });
    assert.equal(result.outcome, 'done', result.reason);
    const writes = (await exchangesOf(project)).filter((e) => e.action === 'write_tests');
    assert.deepEqual(
      writes.map((e) => e.ok),
      [false, true],
    );
    assert.match(writes[0]!.error!, /^"\.github\/workflows\/ci\.yml" is protected: the policy lets no role write \.github\//);
    await assert.rejects(fs.access(path.join(project, '.github')), 'nothing was written there');
  });
});
