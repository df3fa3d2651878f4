/**
 * Model text that becomes metadata, through a whole run (issue 29, Must 5): a PRD whose project name is
 * a ramble with newlines and terminal escapes gives commit subjects of one printable line of at most 72
 * characters, while the document keeps the whole title.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { demoScenario, replaceReply, runScenario } from '../helpers/run-company.ts';
import { removeTempDirs } from '../helpers/temp-dir.ts';

describe('model text as metadata in a run', function () {
  this.timeout(120_000);
  after(removeTempDirs);

  it('commits under subjects of at most 72 printable characters, the PRD keeping the whole title', async () => {
    const scenario = await demoScenario();
    const ramble = `wordfreq\n\u001b[2J\u001b[32mAll tests passed\u001b[0m ${'and then some more words '.repeat(20)}`;
    const prd = scenario.replies.find((r) => r.role === 'product-manager' && r.action === 'revise_prd')!;
    const junk = replaceReply(scenario, { role: 'product-manager', action: 'revise_prd' }, { ...prd, json: { ...(prd.json as object), projectName: ramble } });
    const { result, project } = await runScenario(junk);
    assert.equal(result.outcome, 'done', result.reason);
    const subjects = execFileSync('git', ['log', '--format=%s'], { cwd: project, encoding: 'utf8' }).trim().split('\n');
    const prdSubject = subjects.find((s) => s.startsWith('docs: product requirements for'));
    assert.ok(prdSubject, subjects.join('\n'));
    assert.match(prdSubject, /^docs: product requirements for wordfreq All tests passed and then (some more words and then )*some…$/);
    for (const subject of subjects) {
      assert.ok(Array.from(subject).length <= 72, `${subject} (${Array.from(subject).length} characters)`);
      assert.doesNotMatch(subject, /[\u0000-\u001f\u007f-\u009f]/);
    }
    const document = await fs.readFile(path.join(project, 'docs', 'prd.md'), 'utf8');
    const title = document.split('\n')[0]!;
    assert.match(title, /^# wordfreq All tests passed (and then some more words ){19}and then some more words — Product Requirements$/);
  });
});
