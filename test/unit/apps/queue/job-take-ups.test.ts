/**
 * When a queued run stops its workers every time (src/apps/queue/job-data.ts, `idleTakeUps`): only
 * take-ups in a row that found the run's board no longer count; one after which the run moved on resets
 * the count, so workers killed for other reasons — however often — never fail a job that progresses.
 */
import assert from 'node:assert/strict';
import { idleTakeUps, JobProgress, MAX_IDLE_TAKE_UPS } from '../../../../src/apps/queue/job-data.ts';

const progress = (board: number, idle: number) => JobProgress.parse({ folderMade: true, worker: 'w', board, idleTakeUps: idle });

describe('counting the take-ups of a queued run that does not move on', () => {
  it('counts take-ups that found the board as it was, from the first take-up on', () => {
    assert.equal(idleTakeUps(null, 0), 0, 'the first take-up');
    let before = progress(0, idleTakeUps(null, 0));
    for (let n = 1; n <= MAX_IDLE_TAKE_UPS + 1; n++) {
      const idle = idleTakeUps(before, 0);
      assert.equal(idle, n);
      before = progress(0, idle);
    }
    assert.ok(idleTakeUps(before, 0) > MAX_IDLE_TAKE_UPS, 'a run that never moves on is caught');
  });

  it('starts again whenever the run moved on, however many times its workers were lost', () => {
    let before = progress(0, 0);
    for (let board = 1; board <= 50; board++) {
      const idle = idleTakeUps(before, board);
      assert.equal(idle, 0);
      before = progress(board, idle);
    }
    assert.equal(idleTakeUps(progress(7, MAX_IDLE_TAKE_UPS), 8), 0);
  });

  it('reads the progress written before take-ups were counted (folder made, no board) as a first take-up', () => {
    const old = JobProgress.parse({ folderMade: true, worker: 'elsewhere:1' });
    assert.deepEqual([old.board, old.idleTakeUps], [0, 0]);
    assert.equal(idleTakeUps(old, 3), 0);
    assert.equal(idleTakeUps(JobProgress.parse({ folderMade: false, worker: 'w' }), 0), 0);
  });
});
