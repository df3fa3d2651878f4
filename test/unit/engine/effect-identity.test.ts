/**
 * Effect identity: the n-th call of an action for a key, the n-th message of a role, the n-th approval
 * round — what lets a step re-run after a restore find its earlier effect instead of doing it twice.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { ApprovalDesk, type ApprovalRequest, parseWaiting, questionsOf } from '../../../src/capabilities/approvals/index.ts';
import { messageTypes } from '../../../src/company/index.ts';
import { MessageBoard } from '../../../src/engine/board/index.ts';
import {
  approvalCounter,
  askCounter,
  attemptIdentity,
  callIdentity,
  countedOnce,
  countOf,
  earlierMessage,
  sameApproval,
  seriesIdentity,
} from '../../../src/engine/effect-identity.ts';
import { MemoryRunStore } from '../../../src/engine/run/index.ts';
import { SopworksError } from '../../../src/ground/errors.ts';
import { removeTempDirs, tempDir } from '../../helpers/temp-dir.ts';

describe('effect identity', () => {
  after(removeTempDirs);

  it('tells calls apart by role, action, key, occurrence and attempt', () => {
    const write = { role: 'engineer', action: 'write_code', key: 'src/a.js' };
    const ids = [
      seriesIdentity(write),
      seriesIdentity({ ...write, role: 'qa' }),
      seriesIdentity({ ...write, action: 'fix_code' }),
      seriesIdentity({ ...write, key: 'src/b.js' }),
      seriesIdentity({ ...write, key: null }),
      callIdentity(write, 0),
      callIdentity(write, 1),
      attemptIdentity(write, 0, 1),
      attemptIdentity(write, 0, 2),
      attemptIdentity(write, 1, 1),
    ];
    assert.equal(new Set(ids).size, ids.length);
    // The same call is the same identity in every process: nothing in it depends on time.
    assert.equal(attemptIdentity(write, 3, 2), attemptIdentity({ ...write }, 3, 2));
  });

  it('counts completed effects per action and key, approvals apart from calls, without changing the counts it is given', () => {
    const before = { [askCounter('write_prd', null)]: 2 };
    const after = countedOnce(before, askCounter('write_prd', null));
    assert.equal(countOf(after, askCounter('write_prd', null)), 3);
    assert.equal(countOf(before, askCounter('write_prd', null)), 2);
    assert.equal(countOf(after, askCounter('write_prd', 'docs/PRD.md')), 0);
    assert.notEqual(approvalCounter('prd', null), askCounter('prd', null));
    assert.equal(countOf(countedOnce(after, approvalCounter('prd', null)), askCounter('write_prd', null)), 3);
  });

  it("gives a re-run step the role's n-th message from the board, and says when the SOP changed under the run", () => {
    const board = [
      { id: 'msg-1', from: 'client', type: 'Requirement' },
      { id: 'msg-2', from: 'product-manager', type: 'PRD' },
      { id: 'msg-3', from: 'architect', type: 'Design' },
      { id: 'msg-4', from: 'product-manager', type: 'Document' },
    ];
    assert.equal(earlierMessage(board, { from: 'product-manager', type: 'PRD' }, 0)?.id, 'msg-2');
    assert.equal(earlierMessage(board, { from: 'product-manager', type: 'Document' }, 1)?.id, 'msg-4');
    assert.equal(earlierMessage(board, { from: 'product-manager', type: 'PRD' }, 2), null);
    assert.throws(
      () => earlierMessage(board, { from: 'architect', type: 'TaskGraph' }, 0),
      (error: unknown) => SopworksError.isInstance(error) && error.code === 'NOT_RESUMABLE' && /message #1 on the board is a Design/.test(error.message),
    );
  });

  it('finds a decision already on the board for the same round, and asks again for the next round', async () => {
    const dir = await tempDir();
    const { board } = await MessageBoard.open(path.join(dir, 'board.jsonl'), { types: messageTypes });
    const asked: ApprovalRequest[] = [];
    const askPerson = async (request: ApprovalRequest) => {
      asked.push(request);
      return { approved: request.round > 0, feedback: request.round > 0 ? null : 'name the audience' };
    };
    const desk = new ApprovalDesk(board, new MemoryRunStore(), { gates: ['prd'], yes: false }, askPerson);
    const request = { role: 'product-manager', gate: 'prd' as const, key: null, round: 0, content: '# PRD' };
    assert.deepEqual(await desk.decide(request), { approved: false, feedback: 'name the audience' });
    // The same round again — a step re-run after a resume — is answered from the board.
    assert.deepEqual(await desk.decide({ ...request }), { approved: false, feedback: 'name the audience' });
    assert.equal(asked.length, 1);
    assert.equal((await desk.decide({ ...request, round: 1 })).approved, true);
    assert.equal(asked.length, 2);
    assert.ok(sameApproval(board.all<ApprovalRequest>('Approval')[1]!.payload, { ...request, round: 1 }));
    await board.close();
  });
  it('finds answers already on the board for the same round of questions; without a person they wait, saying so', async () => {
    const dir = await tempDir();
    const { board } = await MessageBoard.open(path.join(dir, 'board.jsonl'), { types: messageTypes });
    const store = new MemoryRunStore();
    let asked = 0;
    const answerPerson = async () => {
      asked++;
      return ['read stdin too', ''];
    };
    const questions = [
      { question: 'Read stdin?', why: null },
      { question: 'Table or JSON?', why: 'the output format' },
    ];
    const desk = new ApprovalDesk(board, store, { gates: [], yes: false, clarify: true }, null, answerPerson);
    assert.deepEqual(await desk.answer({ role: 'product-manager', round: 0, questions }), ['read stdin too', '']);
    // The same round again — the step re-run after a resume — is answered from the board, not asked.
    assert.deepEqual(await desk.answer({ role: 'product-manager', round: 0, questions }), ['read stdin too', '']);
    assert.equal(asked, 1);
    assert.deepEqual(
      board.all<{ answers: { answer: string }[] }>('Answers').map((m) => [m.from, m.to, m.payload.answers.map((a) => a.answer)]),
      [['client', 'product-manager', ['read stdin too', '']]],
    );

    // Nobody at a terminal: the next round waits, is kept for the workbench, and the loop is told.
    const away = new ApprovalDesk(board, store, { gates: [], yes: false, clarify: true }, null, null);
    let told = 0;
    away.notify = () => told++;
    const stop = new AbortController();
    const waiting = away.answer({ role: 'product-manager', round: 1, questions }, stop.signal);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(told, 1);
    assert.deepEqual(away.waiting, [{ role: 'product-manager', gate: 'questions', key: null, questions: 2 }]);
    assert.deepEqual(
      questionsOf(parseWaiting(await store.readWaiting())).map((r) => [r.role, r.round, r.questions.length]),
      [['product-manager', 1, 2]],
    );
    stop.abort(new Error('stopped'));
    await assert.rejects(waiting, /stopped/);
    await board.close();
  });
  it('left at Ctrl-C, a question waits as if nobody were there, and the requests queued behind it are not put to the person', async () => {
    const dir = await tempDir();
    const { board } = await MessageBoard.open(path.join(dir, 'board.jsonl'), { types: messageTypes });
    const store = new MemoryRunStore();
    const asked: string[] = [];
    const askPerson = async (request: ApprovalRequest) => {
      asked.push(request.key ?? '');
      // The person presses Ctrl-C at the first question (the terminal's prompt rejects so).
      throw new SopworksError('INTERRUPTED', 'left unanswered at Ctrl-C');
    };
    const desk = new ApprovalDesk(board, store, { gates: ['code'], yes: false }, askPerson);
    let told = 0;
    desk.notify = () => told++;
    const stop = new AbortController();
    const code = (key: string) => ({ role: 'engineer', gate: 'code' as const, key, round: 0, content: `### ${key}` });
    // Three files ask at once: the second and third queue behind the first on the screen.
    const decisions = ['src/a.js', 'src/b.js', 'src/c.js'].map((key) => desk.decide(code(key), stop.signal));
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(asked, ['src/a.js'], 'only the question on the screen was put to the person');
    assert.deepEqual(
      desk.waiting.map((r) => r.key),
      ['src/a.js', 'src/b.js', 'src/c.js'],
    );
    assert.equal(told, 3);
    assert.deepEqual(
      parseWaiting(await store.readWaiting()).map((r) => ('key' in r ? r.key : null)),
      ['src/a.js', 'src/b.js', 'src/c.js'],
    );
    assert.equal(board.all('Approval').length, 0, 'nothing was decided');
    // Another error of the person's prompt is not taken for leaving: it fails the step.
    const broken = new ApprovalDesk(board, store, { gates: ['code'], yes: false }, async () => {
      throw new Error('the terminal went away');
    });
    await assert.rejects(broken.decide(code('src/d.js')), /the terminal went away/);
    stop.abort(new Error('stopped'));
    await Promise.all(decisions.map((d) => assert.rejects(d, /stopped/)));
    await board.close();
  });
});
