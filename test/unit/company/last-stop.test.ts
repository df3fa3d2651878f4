/**
 * What resume says ended the run's last process (lastStop, src/company/open-run.ts): its outcome when it
 * wrote one, a crash only when it did not — run.json keeps an earlier outcome until the run ends again.
 */
import assert from 'node:assert/strict';
import { lastStop } from '../../../src/company/open-run.ts';
import type { RunRecord } from '../../../src/company/run-record.ts';

const record = (fields: Partial<RunRecord>): RunRecord => ({ resumedAt: [], ...fields }) as RunRecord;

describe('what ended the last process of a run, as resume says it', () => {
  it('names the outcome a process wrote, and a crash only when none did', () => {
    assert.equal(
      lastStop(record({ outcome: 'interrupted', finishedAt: '2026-11-27T10:00:00Z', resumedAt: ['2026-11-27T10:05:00Z'] })),
      "the run's stop (interrupted)",
    );
    assert.equal(lastStop(record({ resumedAt: ['2026-11-27T10:05:00Z'] })), 'a crash', 'no outcome was ever written');
    // Resumed at 10:05 after an interrupt at 10:00, then killed: the outcome on file is the earlier process's.
    const killedAfterResume = record({
      outcome: 'interrupted',
      finishedAt: '2026-11-27T10:00:00Z',
      resumedAt: ['2026-11-27T10:05:00Z', '2026-11-27T10:09:00Z'],
    });
    assert.equal(lastStop(killedAfterResume), 'a crash');
  });
});
