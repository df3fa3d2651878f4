/**
 * What the viewer's header and workbench say of a run, pure: where it stands (never "finished" while
 * it waits for a person; a failure its SOP concluded is final, any other is continued), what a role
 * does in a state of any SOP, and times as a person says them — whatever the date, the zone, or a
 * time that is not one.
 */
import assert from 'node:assert/strict';
import { runPhase } from '../../src/apps/review/run-phase.ts';
import { describeStep } from '../../src/apps/review/state-step.ts';
import { humanTime, shortModel } from '../../src/apps/review/web/client/format.ts';
import type { SopFile } from '../../src/engine/steps/sop-file.ts';

const concluded = { type: 'Outcome', from: 'qa', payload: { outcome: 'failed', reason: 'QA rounds used up' } };

describe('review: where a run stands', () => {
  const cases: [string, Parameters<typeof runPhase>[0], object[], ReturnType<typeof runPhase>][] = [
    ['a process at work, whatever run.json says', { running: true, outcome: 'done' }, [], { phase: 'running', label: 'in progress', continuable: false }],
    ['no outcome and no process', { running: false, outcome: null }, [], { phase: 'cut-off', label: 'stopped before an outcome', continuable: true }],
    ['done', { running: false, outcome: 'done' }, [], { phase: 'done', label: 'done', continuable: false }],
    [
      'awaiting approval: waiting for a person, not finished',
      { running: false, outcome: 'awaiting-approval' },
      [],
      { phase: 'awaiting-decision', label: 'waiting for you', continuable: false },
    ],
    ['interrupted', { running: false, outcome: 'interrupted' }, [], { phase: 'stopped', label: 'interrupted', continuable: true }],
    ['out of budget', { running: false, outcome: 'budget-exhausted' }, [], { phase: 'stopped', label: 'budget exhausted', continuable: true }],
    ['a step that failed', { running: false, outcome: 'failed' }, [{ type: 'PRD' }], { phase: 'stopped', label: 'failed', continuable: true }],
    ['a failure its SOP concluded', { running: false, outcome: 'failed' }, [concluded], { phase: 'failed', label: 'failed', continuable: false }],
    [
      'delivered with a P0 criterion unproven: final, not "stopped"',
      { running: false, outcome: 'criteria-unmet' },
      [],
      { phase: 'failed', label: 'criteria unmet', continuable: false },
    ],
    [
      'an outcome a newer sopworks may write',
      { running: false, outcome: 'paused-for-lunch' },
      [],
      { phase: 'stopped', label: 'paused for lunch', continuable: true },
    ],
  ];
  for (const [what, facts, messages, expected] of cases) {
    it(what, () => assert.deepEqual(runPhase(facts, messages as never), expected));
  }
});

describe('review: what a role does in a state of its SOP', () => {
  const sop: SopFile = {
    id: 'writer',
    initial: 'idle',
    states: {
      idle: { on: { Requirement: { target: 'writing' }, BugReport: { target: 'writing' } } },
      writing: { invoke: { src: 'ask', input: { action: 'write_prd', output: 'PRD' } } },
      files: { invoke: { src: 'eachFile', input: { sop: 'engineer-file.yaml' } } },
      handing: { invoke: { src: 'publish', input: { type: 'CodeComplete' } } },
      plain: { invoke: { src: 'runTests' } },
      review: { initial: 'deciding', states: { deciding: { description: 'weighing the review' } } },
      done: { type: 'final' },
      stuck: {},
    },
  };
  const cases: [string, string | null][] = [
    ['idle', 'waiting for Requirement or BugReport'],
    ['writing', 'ask write_prd'],
    ['files', 'eachFile engineer-file.yaml'],
    ['handing', 'publish CodeComplete'],
    ['plain', 'runTests'],
    ['review.deciding', 'weighing the review'],
    ['done', 'finished'],
    ['stuck', null],
    ['nowhere', null],
    ['review.nowhere', null],
  ];
  for (const [state, step] of cases) it(`${state} → ${step}`, () => assert.equal(describeStep(sop, state), step));
});

describe('review: times as a person says them', () => {
  // Local noon, so "today" and "yesterday" do not depend on the zone the test runs in.
  const now = new Date(2026, 2, 12, 12, 0, 0);
  const at = (...parts: number[]) => new Date(parts[0]!, parts[1]!, parts[2]!, parts[3] ?? 0, parts[4] ?? 0).toISOString();
  const cases: [string, string | null, string][] = [
    ['a few seconds ago', new Date(now.getTime() - 10_000).toISOString(), 'just now'],
    ['minutes ago', new Date(now.getTime() - 5 * 60_000).toISOString(), '5 min ago'],
    ['earlier today', at(2026, 2, 12, 9, 5), 'today 09:05'],
    ['yesterday', at(2026, 2, 11, 23, 59), 'yesterday 23:59'],
    ['this year', at(2026, 0, 3, 7, 30), '3 Jan 07:30'],
    ['another year', at(2024, 11, 31, 7, 30), '31 Dec 2024'],
    ['the future (a clock set wrong)', at(2026, 2, 13, 8, 0), '13 Mar 08:00'],
    ['nothing recorded', null, '—'],
    ['not a time', 'soon', 'soon'],
  ];
  for (const [what, iso, said] of cases) it(what, () => assert.equal(humanTime(iso, now), said));

  it('names a scenario or a model file by its name, the path left for the title', () => {
    assert.equal(shortModel(`scripted:/${'deep/'.repeat(30)}wordfreq.yaml`), 'scripted:…/wordfreq.yaml');
    assert.equal(shortModel('local:C:\\models\\qwen.gguf'), 'local:…/qwen.gguf');
    assert.equal(shortModel('gpt-4o-mini'), 'gpt-4o-mini');
    assert.equal(shortModel('local:qwen2.5-coder-7b'), 'local:qwen2.5-coder-7b');
  });
});
