import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Message } from '../../../../src/engine/board/message.ts';
import { MessageBoard } from '../../../../src/engine/board/message-board.ts';
import { runMessages } from '../../../../src/engine/board/run-messages.ts';
import { SopworksError } from '../../../../src/ground/errors.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

const requirement = (spec = 'a word counter') => ({ type: 'Requirement', from: 'user', payload: { spec, project: 'wordfreq' } });
const outcome = (reason: string) => ({ type: 'Outcome', from: 'qa', payload: { outcome: 'done', reason } });
const fixedNow = () => new Date('2024-05-01T12:00:00.000Z');

const lines = async (file: string): Promise<string[]> => (await fs.readFile(file, 'utf8')).split('\n').filter((l) => l !== '');

describe('MessageBoard', () => {
  after(removeTempDirs);

  let file: string;
  const open: MessageBoard[] = [];
  beforeEach(async () => {
    file = path.join(await tempDir('sopworks-board-'), 'board.jsonl');
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((b) => b.close()));
  });
  const openBoard = async () => {
    const opened = await MessageBoard.open(file, { types: runMessages, now: fixedNow });
    open.push(opened.board);
    return opened;
  };

  it('numbers messages seq 1..n with ids msg-000001…, and fills in the envelope', async () => {
    const { board } = await openBoard();
    const first = await board.post(requirement());
    const second = await board.post({ ...outcome('x'), to: 'engineer', causedBy: [first.id] });
    const third = await board.post(outcome('y'));
    assert.deepEqual([first.seq, second.seq, third.seq], [1, 2, 3]);
    assert.deepEqual([first.id, second.id, third.id], ['msg-000001', 'msg-000002', 'msg-000003']);
    assert.deepEqual(first, {
      id: 'msg-000001',
      seq: 1,
      type: 'Requirement',
      from: 'user',
      to: 'all',
      causedBy: [],
      payload: { spec: 'a word counter', project: 'wordfreq' },
      createdAt: '2024-05-01T12:00:00.000Z',
    });
    assert.equal(second.to, 'engineer');
    assert.deepEqual(second.causedBy, ['msg-000001']);
  });

  it('keeps concurrent posts in call order', async () => {
    const { board } = await openBoard();
    const posted = await Promise.all(['a', 'b', 'c', 'd'].map((r) => board.post(outcome(r))));
    assert.deepEqual(
      posted.map((m) => [m.seq, (m.payload as { reason: string }).reason]),
      [
        [1, 'a'],
        [2, 'b'],
        [3, 'c'],
        [4, 'd'],
      ],
    );
    assert.deepEqual(
      (await lines(file)).map((l) => JSON.parse(l).seq),
      [1, 2, 3, 4],
    );
  });

  it('stores the validated payload (the schema trims text)', async () => {
    const { board } = await openBoard();
    const message = await board.post({ type: 'Requirement', from: 'user', payload: { spec: '  padded  ', project: 'p' } });
    assert.deepEqual(message.payload, { spec: 'padded', project: 'p' });
  });

  it('rejects a payload invalid for its type, naming the type and field, and writes nothing', async () => {
    const { board } = await openBoard();
    await board.post(requirement());
    await assert.rejects(board.post({ type: 'Outcome', from: 'qa', payload: { outcome: 'maybe', reason: 'x' } }), (error: unknown) => {
      assert.ok(SopworksError.isInstance(error));
      assert.equal(error.code, 'REPLY_INVALID');
      assert.match(error.message, /invalid Outcome/);
      assert.match(error.message, /outcome:/);
      return true;
    });
    await assert.rejects(board.post({ type: 'Requirement', from: 'user', payload: { spec: 'x' } }), /invalid Requirement: project:/);
    await assert.rejects(board.post({ type: 'Requirement', from: 'user', payload: { spec: 'x', request: 'y', project: 'p' } }), /exactly one of spec/);
    await assert.rejects(board.post({ type: 'Requirement', from: 'user', payload: { project: 'p' } }), /exactly one of spec/);
    assert.equal((await lines(file)).length, 1);
    assert.equal(board.list().length, 1);
    // the sequence is not burnt by a rejected post
    assert.equal((await board.post(outcome('ok'))).seq, 2);
  });

  it('rejects an unknown message type', async () => {
    const { board } = await openBoard();
    await assert.rejects(board.post({ type: 'Gossip', from: 'qa', payload: {} }), (error: unknown) => {
      assert.ok(SopworksError.isInstance(error));
      assert.equal(error.code, 'SOP_INVALID');
      assert.match(error.message, /Unknown message type "Gossip" published by qa/);
      assert.match(error.hint ?? '', /Requirement/);
      return true;
    });
    assert.deepEqual(await lines(file), []);
  });

  it('tells subscribers only once the message is on disk (read from inside the subscriber)', async () => {
    const { board } = await openBoard();
    const found: [string, boolean][] = [];
    board.subscribe((message: Message) => {
      // synchronous read at notification time: the line must already be in the file
      const stored = readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l).id);
      found.push([message.id, stored.includes(message.id)]);
    });
    await board.post(requirement());
    await board.post(outcome('x'));
    assert.deepEqual(found, [
      ['msg-000001', true],
      ['msg-000002', true],
    ]);
  });

  it('stops telling a subscriber once it unsubscribes', async () => {
    const { board } = await openBoard();
    const seen: number[] = [];
    const unsubscribe = board.subscribe((m) => seen.push(m.seq));
    await board.post(requirement());
    unsubscribe();
    await board.post(outcome('x'));
    assert.deepEqual(seen, [1]);
  });

  it('replays the messages when reopened, and continues the sequence', async () => {
    const first = await MessageBoard.open(file, { types: runMessages, now: fixedNow });
    const a = await first.board.post(requirement());
    const b = await first.board.post(outcome('x'));
    await first.board.close();

    const { board, droppedTail } = await openBoard();
    assert.equal(droppedTail, null);
    assert.deepEqual(board.list(), [a, b]);
    const c = await board.post(outcome('y'));
    assert.equal(c.id, 'msg-000003');
    assert.equal((await lines(file)).length, 3);
  });

  it('drops a torn last line on open, cuts it from the file and reports it', async () => {
    const first = await MessageBoard.open(file, { types: runMessages, now: fixedNow });
    await first.board.post(requirement());
    await first.board.post(outcome('x'));
    await first.board.close();
    const torn = '{"id":"msg-000003","seq":3,"type":"Outc';
    await fs.appendFile(file, torn);

    const { board, droppedTail } = await openBoard();
    assert.equal(droppedTail, torn);
    assert.deepEqual(
      board.list().map((m) => m.id),
      ['msg-000001', 'msg-000002'],
    );
    assert.ok(!(await fs.readFile(file, 'utf8')).includes('Outc"'), 'the torn tail is cut from the file');
    assert.ok((await fs.readFile(file, 'utf8')).endsWith('\n'));
    // the next message takes the torn one's place, on a line of its own
    const next = await board.post(outcome('again'));
    assert.equal(next.id, 'msg-000003');
    const stored = (await lines(file)).map((l) => JSON.parse(l));
    assert.deepEqual(
      stored.map((m) => m.seq),
      [1, 2, 3],
    );
  });

  it('refuses a board damaged in the middle, naming file:line', async () => {
    const first = await MessageBoard.open(file, { types: runMessages, now: fixedNow });
    await first.board.post(requirement());
    await first.board.post(outcome('x'));
    await first.board.close();
    const [one, two] = await lines(file);
    await fs.writeFile(file, `${one}\n{not json\n${two}\n`);
    await assert.rejects(MessageBoard.open(file, { types: runMessages }), (error: Error) => {
      assert.ok(error.message.includes(`${file}:2:`), error.message);
      return true;
    });
  });

  it('refuses a stored line that is JSON but not a board message, naming file:line', async () => {
    await fs.writeFile(file, '{"hello":"world"}\n');
    await assert.rejects(MessageBoard.open(file, { types: runMessages }), (error: Error) => {
      assert.ok(error.message.startsWith(`${file}:1: not a board message`), error.message);
      return true;
    });
  });

  it('answers latest and all by type', async () => {
    const board = MessageBoard.inMemory({ types: runMessages, now: fixedNow });
    await board.post(outcome('first'));
    await board.post(requirement());
    await board.post(outcome('second'));
    assert.equal(board.latest<{ reason: string }>('Outcome')?.payload.reason, 'second');
    assert.equal(board.latest('Requirement')?.seq, 2);
    assert.equal(board.latest('PRD'), undefined);
    assert.deepEqual(
      board.all<{ reason: string }>('Outcome').map((m) => m.payload.reason),
      ['first', 'second'],
    );
    assert.deepEqual(board.all('PRD'), []);
  });

  it('shows the board as it was before a given message with before(seq)', async () => {
    const board = MessageBoard.inMemory({ types: runMessages, now: fixedNow });
    await board.post(outcome('one'));
    await board.post(requirement());
    await board.post(outcome('three'));
    const beforeThird = board.before(3);
    assert.equal(beforeThird.latest<{ reason: string }>('Outcome')?.payload.reason, 'one');
    assert.deepEqual(
      beforeThird.all('Outcome').map((m) => m.seq),
      [1],
    );
    assert.equal(beforeThird.latest('Requirement')?.seq, 2);
    const beforeFirst = board.before(1);
    assert.equal(beforeFirst.latest('Outcome'), undefined);
    assert.deepEqual(beforeFirst.all('Requirement'), []);
  });
});
