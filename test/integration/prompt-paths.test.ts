/**
 * No prompt names a folder of the user's machine: a run whose tests fail under the weaker sandbox (where
 * the runner prints the real project folder in its stack frames) hands QA's bug-report step, and every
 * other step, output in which the project is `.` and the home folder `~`.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ScriptedProvider } from '../../src/capabilities/model/index.ts';
import { loadCompany, startRun } from '../../src/company/index.ts';
import { readAppendLog } from '../../src/ground/files/index.ts';
import { DEFAULT_LIMITS, withoutMachinePaths } from '../../src/host/sandbox/index.ts';
import { ROLES, SOPS } from '../helpers/paths.ts';
import { demoScenario, replaceReply } from '../helpers/run-company.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

describe('prompts name no folder of the machine', function () {
  this.timeout(90_000);
  after(removeTempDirs);

  it("keeps the project folder out of QA's bug report prompt (and every prompt) when tests fail outside bubblewrap", async () => {
    const demo = await demoScenario();
    const tokenize = demo.replies.find((r) => r.action === 'write_file' && r.key === 'src/tokenize.js')!;
    const scenario = replaceReply(demo, { role: 'engineer', action: 'write_file', key: 'src/tokenize.js' }, {
      ...tokenize,
      code: 'export function tokenize(text) {\n  return text.split(/\\s+/).filter((word) => word.length > 0);\n}\n',
    } as typeof tokenize);
    const project = path.join(await tempDir(), 'wordfreq');
    const result = await startRun({
      llm: { kind: 'scripted', file: 'scenario' },
      spec: demo.spec ?? 'wordfreq',
      project: 'wordfreq',
      projectDir: project,
      company: await loadCompany(SOPS, ROLES),
      provider: new ScriptedProvider('scripted:test', scenario),
      maxRepairs: 2,
      sandbox: { mode: 'fallback', limits: DEFAULT_LIMITS, allowUnsandboxed: false },
    });
    const { records } = await readAppendLog(path.join(project, '.sopworks', 'exchanges.jsonl'));
    const prompts = records as { role: string; action: string; messages: { content: string }[] }[];
    const bugReport = prompts.find((r) => r.action === 'write_bug_report');
    assert.ok(bugReport, `QA wrote a bug report (outcome ${result.outcome}: ${result.reason})`);
    assert.match(bugReport.messages[1]!.content, /## Test output[\s\S]*not ok 1 - AC-2: tokenize/);
    const real = await fs.realpath(project);
    for (const r of prompts) {
      const text = r.messages.map((m) => m.content).join('\n');
      assert.ok(!text.includes(project) && !text.includes(real), `${r.role} ${r.action}'s prompt names ${project}`);
    }
  });
});

describe('withoutMachinePaths', () => {
  it('turns the project folder into . and the home folder into ~, in paths and file URLs alike', () => {
    const output = [
      'TestContext.<anonymous> (file:///home/ann/work/out/wordfreq/test/a.test.js:17:10)',
      '  File "/home/ann/work/out/wordfreq/src/count.py", line 3, in count',
      'rootdir: /home/ann/work/out/wordfreq',
      'platform linux -- Python 3.11 -- /home/ann/.pyenv/bin/python3',
      'not /home/anna/other nor /home/ann/work/out/wordfreq2',
    ].join('\n');
    assert.equal(
      withoutMachinePaths(output, '/home/ann/work/out/wordfreq', '/home/ann'),
      [
        'TestContext.<anonymous> (file://./test/a.test.js:17:10)',
        '  File "./src/count.py", line 3, in count',
        'rootdir: .',
        'platform linux -- Python 3.11 -- ~/.pyenv/bin/python3',
        'not /home/anna/other nor ~/work/out/wordfreq2',
      ].join('\n'),
    );
  });

  it('leaves every path alone when the home folder is /', () => {
    assert.equal(withoutMachinePaths('/usr/lib/x.js', '/srv/p', '/'), '/usr/lib/x.js');
  });
});
