/**
 * decideOutcome: how a run ends, decided from a snapshot of the company — every outcome, and the order in
 * which they win when several apply at once.
 */
import assert from 'node:assert/strict';
import { type CompanySnapshot, decideOutcome, type RoleSnapshot } from '../../../../src/engine/run/decide-outcome.ts';
import { WorkInFlight } from '../../../../src/engine/run/work-in-flight.ts';
import { SopworksError } from '../../../../src/ground/errors.ts';

const idle = (id: string, waiting: RoleSnapshot['waiting'] = []): RoleSnapshot => ({ id, status: { kind: 'idle' }, state: 'waiting', waiting });
const working = (id: string): RoleSnapshot => ({ id, status: { kind: 'working' }, state: 'writing', waiting: [] });
const failed = (id: string, error: unknown, state = 'writing'): RoleSnapshot => ({ id, status: { kind: 'error', error, state }, state, waiting: [] });

const quiet: CompanySnapshot = {
  commitFault: null,
  roles: [],
  approvalsWaiting: [],
  stopsReached: [],
  workInFlight: 0,
  stopping: null,
  posted: null,
  lastMessage: null,
};
const company = (change: Partial<CompanySnapshot>): CompanySnapshot => ({ ...quiet, ...change });

const budget = new SopworksError('BUDGET_EXHAUSTED', 'the budget of 1000 tokens is spent');
const interrupted = new SopworksError('INTERRUPTED', 'stopped after the files under way');
const approval = { role: 'product-manager', gate: 'prd', key: null };
const stop = { role: 'architect', point: 'prd' };
const done = { outcome: 'done' as const, reason: 'all tests pass' };

describe('the outcome of a run', () => {
  const table: { when: string; company: CompanySnapshot; outcome: string | null; reason?: RegExp }[] = [
    { when: 'a role is at work', company: company({ roles: [working('engineer')] }), outcome: null },
    { when: 'an outcome is posted but a role is still at work', company: company({ roles: [working('writer')], posted: done }), outcome: null },
    {
      when: 'an outcome is posted and no role is at work',
      company: company({ roles: [idle('qa')], posted: done }),
      outcome: 'done',
      reason: /^all tests pass$/,
    },
    {
      when: 'a posted failure',
      company: company({ posted: { outcome: 'failed', reason: 'the same failure three times' } }),
      outcome: 'failed',
      reason: /same failure/,
    },
    {
      when: 'a posted criteria-unmet: delivered, a P0 criterion unproven — its own outcome, not failed',
      company: company({ roles: [idle('qa')], posted: { outcome: 'criteria-unmet', reason: '1 of 3 P0 criteria unmet: AC-2 (no test cites it)' } }),
      outcome: 'criteria-unmet',
      reason: /^1 of 3 P0 criteria unmet: AC-2/,
    },
    {
      when: 'criteria-unmet posted while a role is still at work',
      company: company({ roles: [working('qa')], posted: { outcome: 'criteria-unmet', reason: 'AC-2 unmet' } }),
      outcome: null,
    },
    {
      when: 'criteria-unmet posted, but the user stopped the run first',
      company: company({ roles: [idle('qa')], stopping: 'soft', posted: { outcome: 'criteria-unmet', reason: 'AC-2 unmet' } }),
      outcome: 'interrupted',
    },
    {
      when: 'no role is at work and nothing was posted, with a message waiting',
      company: company({ roles: [idle('qa', [{ type: 'Code', id: 'msg-000007' }])] }),
      outcome: 'failed',
      reason: /stalled.*qa has Code msg-000007 waiting in state "waiting"/,
    },
    {
      when: 'no role is at work and nothing was posted, nothing waiting',
      company: company({ roles: [idle('qa')], lastMessage: { type: 'Design', id: 'msg-000003', from: 'architect' } }),
      outcome: 'failed',
      reason: /stalled.*last message: Design msg-000003 from architect/,
    },
    { when: 'the user stopped and a step is in flight', company: company({ roles: [working('engineer')], stopping: 'soft' }), outcome: null },
    {
      when: 'the user stopped gently',
      company: company({ roles: [idle('engineer')], stopping: 'soft' }),
      outcome: 'interrupted',
      reason: /after the steps in flight/,
    },
    { when: 'the user stopped at once', company: company({ stopping: 'hard' }), outcome: 'interrupted', reason: /at once/ },
    {
      when: 'the output was closed (`run … | head`): the reason says so, never the user',
      company: company({ roles: [idle('engineer')], stopping: 'soft', stopReason: 'the output was closed (its reader went away)' }),
      outcome: 'interrupted',
      reason: /^the output was closed \(its reader went away\): stopped after the steps in flight$/,
    },
    {
      when: 'the output was closed, then the user pressed Ctrl-C',
      company: company({ stopping: 'hard', stopReason: 'the output was closed (its reader went away)' }),
      outcome: 'interrupted',
      reason: /^stopped by the user \(at once\)$/,
    },
    {
      when: 'a step stopped part-way by a gentle stop',
      company: company({ roles: [failed('engineer', interrupted)], stopping: 'soft' }),
      outcome: 'interrupted',
    },
    {
      when: 'an INTERRUPTED step without a gentle stop',
      company: company({ roles: [failed('engineer', interrupted)] }),
      outcome: 'failed',
      reason: /engineer failed in step "writing"/,
    },
    {
      when: 'a step failed',
      company: company({ roles: [working('qa'), failed('engineer', new Error('boom'))] }),
      outcome: 'failed',
      reason: /engineer failed.*boom/,
    },
    {
      when: 'the budget ran out',
      company: company({ roles: [failed('architect', budget, 'designing')] }),
      outcome: 'budget-exhausted',
      reason: /architect stopped before step "designing": the budget/,
    },
    {
      when: "the endpoint's limit stopped a step and said when it resets",
      company: company({
        roles: [failed('architect', new SopworksError('MODEL_QUOTA', 'the endpoint is at its limit', { resumeAt: '2026-11-27T14:02:12.000Z' }), 'designing')],
      }),
      outcome: 'paused',
      reason: /architect paused in step "designing": the endpoint is at its limit/,
    },
    {
      when: 'an approval waits and nothing is in flight',
      company: company({ roles: [idle('pm')], approvalsWaiting: [approval] }),
      outcome: 'awaiting-approval',
      reason: /approve prd from product-manager/,
    },
    {
      when: 'questions wait for answers beside an approval, nothing in flight',
      company: company({ roles: [idle('pm')], approvalsWaiting: [approval, { role: 'product-manager', gate: 'questions', key: null, questions: 2 }] }),
      outcome: 'awaiting-approval',
      reason: /^waiting for a person to approve prd from product-manager and answer 2 questions from product-manager$/,
    },
    {
      when: 'an approval waits while a model call is out',
      company: company({ roles: [working('engineer')], approvalsWaiting: [approval], workInFlight: 1 }),
      outcome: null,
    },
    {
      when: 'a stop point is reached (--until) and nothing is in flight, though the holding role is at its step',
      company: company({ roles: [working('architect'), idle('engineer')], stopsReached: [stop] }),
      outcome: 'paused',
      reason: /stopped at prd \(architect\), as --until prd asked; resume goes on to the end/,
    },
    {
      when: 'a stop point is reached while a model call is out',
      company: company({ roles: [working('architect'), working('pm')], stopsReached: [stop], workInFlight: 1 }),
      outcome: null,
    },
    {
      when: 'a commit failed',
      company: company({ commitFault: 'the commit of Code msg-000009 from engineer failed' }),
      outcome: 'failed',
      reason: /commit of Code/,
    },
  ];
  for (const row of table) {
    it(`${row.when}: ${row.outcome ?? 'the run goes on'}`, () => {
      const decided = decideOutcome(row.company);
      assert.equal(decided?.outcome ?? null, row.outcome);
      if (row.reason) assert.match(decided!.reason, row.reason);
      assert.equal(decided?.resumeAt, row.outcome === 'paused' && /limit/.test(row.when) ? '2026-11-27T14:02:12.000Z' : undefined);
    });
  }

  // When several apply, the earlier wins: commit fault, role failure, approval, stop point, (at work), stop, posted, stalled.
  const everything = (change: Partial<CompanySnapshot> = {}): CompanySnapshot =>
    company({
      commitFault: 'the commit failed',
      roles: [failed('architect', budget), failed('engineer', new Error('boom')), working('qa')],
      approvalsWaiting: [approval],
      stopsReached: [stop],
      stopping: 'hard',
      posted: done,
      ...change,
    });
  const order: { without: Partial<CompanySnapshot>; outcome: string | null; reason: RegExp }[] = [
    { without: {}, outcome: 'failed', reason: /the commit failed/ },
    { without: { commitFault: null }, outcome: 'budget-exhausted', reason: /^architect/ },
    { without: { commitFault: null, roles: [failed('engineer', new Error('boom')), failed('architect', budget)] }, outcome: 'failed', reason: /^engineer/ },
    { without: { commitFault: null, roles: [working('qa')] }, outcome: 'awaiting-approval', reason: /approve prd/ },
    { without: { commitFault: null, roles: [working('qa')], approvalsWaiting: [] }, outcome: 'paused', reason: /stopped at prd/ },
    { without: { commitFault: null, roles: [idle('qa')], approvalsWaiting: [], stopsReached: [] }, outcome: 'interrupted', reason: /stopped by the user/ },
    { without: { commitFault: null, roles: [idle('qa')], approvalsWaiting: [], stopsReached: [], stopping: null }, outcome: 'done', reason: /all tests pass/ },
    {
      without: { commitFault: null, roles: [idle('qa')], approvalsWaiting: [], stopsReached: [], stopping: null, posted: null },
      outcome: 'failed',
      reason: /stalled/,
    },
  ];
  for (const [index, step] of order.entries()) {
    it(`order ${index + 1}: ${step.outcome} wins over what comes after it`, () => {
      const decided = decideOutcome(everything(step.without));
      assert.equal(decided?.outcome, step.outcome);
      assert.match(decided!.reason, step.reason);
    });
  }
});

describe('work in flight', () => {
  it('counts work until it settles, whether it succeeds or fails', async () => {
    const work = new WorkInFlight();
    let release!: () => void;
    const call = work.track(() => new Promise<string>((resolve) => (release = () => resolve('reply'))));
    const post = work.track(() => Promise.reject(new Error('the board is closed')));
    assert.equal(work.count, 2);
    await assert.rejects(post, /the board is closed/);
    assert.equal(work.count, 1);
    release();
    assert.equal(await call, 'reply');
    assert.equal(work.count, 0);
  });
});
