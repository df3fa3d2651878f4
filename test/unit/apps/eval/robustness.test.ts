/** `eval --repeat`/`--chaos`: which runs a suite makes, and the figures drawn from them. Pure. */
import assert from 'node:assert/strict';
import { aggregate } from '../../../../src/apps/eval/aggregate.ts';
import { type RunResult, robustness } from '../../../../src/apps/eval/robustness.ts';
import { planRuns } from '../../../../src/apps/eval/run-plan.ts';
import type { SpecResult } from '../../../../src/apps/eval/spec-result.ts';
import type { Suite } from '../../../../src/apps/eval/suite-file.ts';

const spec = (name: string, scenario: string | null) => ({ name, spec: name, scenario, entry: null, checks: [] });
const suite: Suite = { file: '/s.yaml', name: 's', description: null, concurrency: 2, specs: [spec('a', '/a.yaml'), spec('real', null)] };

const run = (over: Partial<RunResult>): RunResult => ({
  spec: 'a',
  repeat: 1,
  seed: 1,
  chaos: 0.3,
  outcome: 'done',
  tree: 't',
  sameTree: true,
  checksPassed: null,
  reasks: 0,
  retries: 0,
  tokens: 100,
  error: null,
  faults: [],
  ...over,
});

describe('eval: the runs of a suite', () => {
  it('runs each spec once in <out>/<name> without --repeat or --chaos, as before', () => {
    assert.deepEqual(
      planRuns(suite, { repeat: 1, chaos: null }, '/o').map((r) => [r.label, r.repeat, r.chaos, r.projectDir]),
      [
        ['a', 1, null, '/o/a'],
        ['real', 1, null, '/o/real'],
      ],
    );
  });

  it('adds a clean run per scenario under --chaos, and gives each repeat its own seed and folder, with the same project name', () => {
    assert.deepEqual(
      planRuns(suite, { repeat: 2, chaos: { rate: 0.3, seed: 7 } }, '/o').map((r) => [r.label, r.repeat, r.chaos?.seed ?? null, r.projectDir]),
      [
        ['a', 0, null, '/o/a'],
        ['a #1', 1, 7, '/o/repeat-1/a'],
        ['a #2', 2, 8, '/o/repeat-2/a'],
        // A spec on a real model is repeated clean: only a scenario can be spoiled on purpose.
        ['real #1', 1, null, '/o/real'],
        ['real #2', 2, null, '/o/repeat-2/real'],
      ],
    );
  });
});

describe('eval: robustness figures', () => {
  it('counts runs, done, the same tree, crashes and mishandled faults, and sums per run', () => {
    const fault = { fault: 'cut-off', expect: 'reasked' as const, role: 'qa', action: 'write_tests', key: null, attempt: 1, handled: true };
    const rows = robustness(
      [
        run({ repeat: 0, seed: null, chaos: null, sameTree: null, tokens: 1 }),
        run({ reasks: 2, retries: 1, tokens: 100, faults: [fault] }),
        run({ repeat: 2, outcome: 'done', sameTree: false, tokens: 300, faults: [{ ...fault, handled: false }] }),
        run({ repeat: 3, outcome: 'none', sameTree: false, tree: null, tokens: 200 }),
        run({ repeat: 4, outcome: 'failed', sameTree: false, error: null, reasks: 2, tokens: 400 }),
      ],
      ['a'],
    );
    const [a, all] = rows;
    assert.deepEqual(all, { ...a, spec: 'all' });
    assert.deepEqual(a, {
      spec: 'a',
      runs: 4,
      done: 2,
      sameTree: 1,
      crashed: 1,
      reasksPerRun: 1,
      retriesPerRun: 0.25,
      tokensMedian: 250,
      tokensMin: 100,
      tokensMax: 400,
      faults: 2,
      faultsMishandled: 1,
      passAt1: null,
      passAtK: null,
      criteriaProven: null,
    });
  });

  it('estimates pass@1 and pass@k from the checks of each spec, averaged over the specs', () => {
    const rows = robustness(
      [
        run({ spec: 'a', repeat: 1, checksPassed: true }),
        run({ spec: 'a', repeat: 2, checksPassed: false }),
        run({ spec: 'a', repeat: 3, checksPassed: false }),
        run({ spec: 'b', repeat: 1, checksPassed: false }),
        run({ spec: 'b', repeat: 2, checksPassed: false }),
        run({ spec: 'b', repeat: 3, checksPassed: false }),
      ],
      ['a', 'b'],
    );
    // a: 1 of 3 passed — pass@1 = 1/3, pass@3 = 1; b: none — 0 and 0.
    assert.deepEqual(
      rows.map((r) => [r.spec, r.passAt1, r.passAtK]),
      [
        ['a', 0.333, 1],
        ['b', 0, 0],
        ['all', 0.167, 0.5],
      ],
    );
  });

  it('puts the share of acceptance criteria proven beside pass@k: per run, averaged per spec and over the suite', () => {
    const rows = robustness(
      [
        run({ spec: 'a', repeat: 1, criteriaProven: 1 }),
        run({ spec: 'a', repeat: 2, criteriaProven: 0.5 }),
        run({ spec: 'b', repeat: 1, criteriaProven: 0.25 }),
        // A run that built no coverage matrix (it failed before its tests) is not counted as 0.
        run({ spec: 'b', repeat: 2, criteriaProven: null, outcome: 'failed' }),
      ],
      ['a', 'b'],
    );
    assert.deepEqual(
      rows.map((r) => [r.spec, r.criteriaProven]),
      [
        ['a', 0.75],
        ['b', 0.25],
        ['all', 0.583],
      ],
    );
  });
});

describe('eval: aggregates of a suite', () => {
  const result = (criteria: SpecResult['criteria']): SpecResult => ({
    name: 's',
    spec: 's',
    model: 'scripted',
    outcome: 'done',
    reason: '',
    tests: null,
    criteria,
    entryRuns: null,
    checks: [],
    files: 1,
    lines: 1,
    complete: true,
    calls: 1,
    promptTokens: 1,
    completionTokens: 1,
    tokensPerLine: 2,
    costUsd: null,
    wallMs: 1000,
  });

  it('counts the criteria proven over every run that traced them, P0 apart', () => {
    const a = aggregate([result({ proven: 3, total: 4, p0Proven: 2, p0Total: 2 }), result({ proven: 1, total: 4, p0Proven: 0, p0Total: 3 }), result(null)], 0);
    assert.deepEqual([a.criteriaProvenRate, a.p0ProvenRate], [0.5, 0.4]);
    assert.deepEqual([aggregate([result(null)], 0).criteriaProvenRate], [null]);
  });
});
