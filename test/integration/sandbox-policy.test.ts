/**
 * The authorization policy in a whole run, offline on the demo scenario: a task the Engineer may not
 * write and a test command QA may not run go back to the Architect with the reason; a test file QA
 * may not write goes back to QA; the tests run in the sandbox and the TestReport says how.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Scenario } from '../../src/capabilities/model/scenario.ts';
import type { TestReport } from '../../src/documents/schemas.ts';
import { readAppendLog } from '../../src/ground/files/append-log.ts';
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

/** The scenario with one more fix_tasks reply, worded differently (the same reply twice is a loop). */
function withSecondFix(scenario: Scenario): Scenario {
  const fix = scenario.replies.find((r) => r.action === 'fix_tasks')!;
  const graph = fix.json as { tasks: { description: string }[] };
  const reworded = { ...graph, tasks: graph.tasks.map((t, i) => (i === 0 ? { ...t, description: `${t.description} Keep it small.` } : t)) };
  return { ...scenario, replies: [...scenario.replies, { ...fix, json: reworded }] };
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

  it('sends a task the Engineer may not write back to the Architect with the reason, and gives up after the bound', async () => {
    const sops = await sopsWithPolicy((policy) => policy.replace('    except:\n      - docs/prd.md', '    except:\n      - src/cli.js\n      - docs/prd.md'));
    const { result, project } = await runScenario(withSecondFix(await demoScenario()), { sops: sops.dir, roles: ROLES });
    assert.equal(result.outcome, 'failed');
    assert.match(
      result.reason,
      new RegExp(
        `the task graph is still invalid after 2 corrections: .*a task the policy refuses: engineer may not write "src/cli\\.js": ${sops.file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} excepts src/cli\\.js`,
        's',
      ),
    );
    const fixes = (await exchangesOf(project)).filter((e) => e.action === 'fix_tasks');
    assert.equal(fixes.length, 2);
    assert.match(fixes[1]!.messages[1]!.content, /a task the policy refuses: engineer may not write "src\/cli\.js"/, 'the reason went back to the Architect');
    assert.ok(!result.messages.some((m) => m.type === 'TaskGraph'), 'no refused task graph reached the board');
  });

  it('sends a test command QA may not run back to the Architect, before any code is written', async () => {
    let scenario = await demoScenario();
    const design = scenario.replies.find((r) => r.action === 'write_design')!;
    const shell = { ...design, reply: design.reply!.replace('"node",\n    "--test"', '"sh",\n    "-c",\n    "node --test"') };
    assert.notEqual(shell.reply, design.reply, 'the scenario names the test command as expected');
    scenario = replaceReply(scenario, { role: 'architect', action: 'write_design' }, shell);
    const { result } = await runScenario(withSecondFix(scenario));
    assert.equal(result.outcome, 'failed');
    assert.match(
      result.reason,
      /the design's test command is refused: qa may not run "sh -c node --test"\. Allowed by the policy: commands starting with: node;/s,
    );
    assert.ok(!result.messages.some((m) => m.type === 'Code'), 'nothing was built on a design whose tests cannot run');
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
