/**
 * What the viewer's header and workbench say of a run, pure: where it stands (never "finished" while
 * it waits for a person; a failure its SOP concluded is final, any other is continued), what a role
 * does in a state of any SOP, and times as a person says them — whatever the date, the zone, or a
 * time that is not one.
 */
import assert from 'node:assert/strict';
import { runPhase } from '../../../../src/apps/review/run-phase.ts';
import type { LaunchView, RunStatus } from '../../../../src/apps/review/server/api-types.ts';
import { describeStep } from '../../../../src/apps/review/state-step.ts';
import { elapsedMs, humanTime, longDuration, shortModel } from '../../../../src/apps/review/web/client/format.ts';
import { liveText, shownPhase } from '../../../../src/apps/review/web/client/run-state.ts';
import type { SopFile } from '../../../../src/engine/steps/index.ts';

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
      gated: { invoke: { src: 'awaitApproval', input: { gate: 'prd', show: 'prd' } } },
      checking: { invoke: { src: 'fastCheck' } },
      asking: { invoke: { src: 'ask', input: { action: 'clarify_change' } } },
      review: { initial: 'deciding', states: { deciding: { description: 'weighing the review' } } },
      done: { type: 'final' },
      stuck: {},
    },
  };
  const cases: [string, string | null][] = [
    ['idle', 'waiting for a requirement or a bug report'],
    ['writing', 'writing the PRD'],
    ['files', 'working through the files'],
    ['handing', 'publishing the code complete'],
    ['plain', 'running the tests'],
    ['gated', 'waiting for a person to approve the PRD'],
    ['checking', 'fast check'],
    ['asking', 'asking questions about the change'],
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

describe('review: one true state, and the time a run really took', () => {
  const status = (phase: RunStatus['phase'], more: Partial<RunStatus> = {}): RunStatus => ({
    finished: true,
    running: false,
    outcome: null,
    reason: null,
    phase,
    resumeAt: null,
    ...more,
  });
  const waiting = status({ phase: 'awaiting-decision', label: 'waiting for you', continuable: false }, { outcome: 'awaiting-approval' });
  const starting = { state: 'starting' } as LaunchView;

  it('says one state in the badge and the header: a run this viewer just continued is starting, not still waiting for you', () => {
    assert.deepEqual(shownPhase(waiting, starting), { phase: 'running', label: 'starting…', continuable: false });
    assert.equal(liveText(waiting, starting), 'starting…');
    assert.equal(liveText(waiting), 'waiting for you');
    assert.equal(liveText(status({ phase: 'running', label: 'in progress', continuable: false }, { running: true }), starting), '● live');
    const interrupted = status({ phase: 'stopped', label: 'interrupted', continuable: true }, { outcome: 'interrupted' });
    assert.equal(liveText(interrupted), 'interrupted', "the badge's words, not a second name for it");
    assert.equal(liveText(status({ phase: 'done', label: 'done', continuable: false })), 'finished');
  });

  it("says until when a run paused at its endpoint's limit waits", () => {
    const paused = status({ phase: 'stopped', label: 'paused', continuable: true }, { outcome: 'paused', resumeAt: '2999-01-01T10:00:00Z' });
    assert.match(shownPhase(paused).label, /^paused until 1 Jan 2999$/);
  });

  it('counts the waiting in the elapsed time: to its last stop, or to now while it works or waits', () => {
    const start = '2026-11-27T10:00:00Z';
    assert.equal(elapsedMs(start, '2026-11-27T10:06:00.100Z', false), 360_100, 'a run that waited 6 minutes took 6 minutes');
    assert.equal(elapsedMs(start, '2026-11-27T10:00:01Z', true, Date.parse('2026-11-27T10:30:00Z')), 1_800_000, 'still waiting: to now');
    assert.equal(elapsedMs(null, null, false), null);
    assert.equal(longDuration(360_100), '6 min 0 s');
    assert.equal(longDuration(1_800_000 * 5), '2 h 30 min');
    assert.equal(longDuration(1500), '1.5s');
  });
});
