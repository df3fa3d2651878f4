/**
 * A company may switch self-review off (`settings: { selfReview: false }` on a role in company.yaml):
 * the run still ends done, no review is asked of a model, and what is committed says it was not reviewed.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { Scenario } from '../../src/capabilities/model/index.ts';
import { readAppendLog } from '../../src/ground/files/index.ts';
import { ROOT, SOPS } from '../helpers/paths.ts';
import { type CompanyRun, runScenario } from '../helpers/run-company.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const records = async (run: CompanyRun, file: string) => (await readAppendLog(path.join(run.project, '.sopworks', file))).records as Record<string, unknown>[];

/** The shipped SOPs with the Product Manager's and the Engineer's self-review switched off. */
async function withoutSelfReview(): Promise<string> {
  const sops = path.join(await tempDir('sopworks-no-review-'), 'sops');
  await fs.cp(SOPS, sops, { recursive: true });
  const file = path.join(sops, 'company.yaml');
  const company = await fs.readFile(file, 'utf8');
  const edited = company.replace(/^( {2}- id: (product-manager|engineer)\n)/gm, '$1    settings:\n      selfReview: false\n');
  assert.equal(edited.match(/^ {6}selfReview: false$/gm)?.length, 2, 'the setting is given to two roles');
  await fs.writeFile(file, edited);
  return sops;
}

describe('self-review switched off', function () {
  this.timeout(240_000);
  after(removeTempDirs);

  const scenarioFile = path.join(ROOT, 'examples', 'eval', 'fizzbuzz.yaml');
  let scenario: Scenario;
  before(async () => {
    scenario = Scenario.parse(parse(await fs.readFile(scenarioFile, 'utf8')));
  });

  it('ends done without a single review call, and commits each file with no review', async () => {
    const run = await runScenario(scenario, { sops: await withoutSelfReview() });
    assert.equal(run.result.outcome, 'done', run.result.reason);
    const asked = (await records(run, 'exchanges.jsonl')).map((e) => String(e.action));
    assert.ok(asked.includes('write_prd') && asked.includes('write_file') && asked.includes('write_tests'), asked.join(', '));
    assert.deepEqual(
      asked.filter((action) => action.startsWith('review_')),
      [],
      'no review is asked',
    );
    const code = (await records(run, 'board.jsonl')).filter((m) => m.type === 'Code');
    assert.ok(code.length >= 2);
    for (const message of code) {
      const payload = message.payload as { path: string; review: unknown; reviewer: unknown; checks: { approved: boolean } | null };
      assert.equal(payload.review, null, `${payload.path} carries no review`);
      assert.equal(payload.reviewer, null, `${payload.path} names no reviewer: nobody reviewed it`);
      assert.equal(payload.checks?.approved, true, `${payload.path} passed its fast checks`);
    }
  });

  it('asks for the reviews with the shipped settings: the switch is what leaves them out', async () => {
    const run = await runScenario(scenario);
    assert.equal(run.result.outcome, 'done', run.result.reason);
    const reviews = (await records(run, 'exchanges.jsonl')).filter((e) => String(e.action).startsWith('review_'));
    assert.deepEqual(reviews.map((e) => e.action).sort(), ['review_file', 'review_file', 'review_file', 'review_file', 'review_prd']);
  });
});
