/**
 * What a resumed run answers from the exchange log: the last round of a call — unless that round failed
 * the step with every attempt spent, which is asked again. A round cut short by a crash is replayed and
 * carried on, so nothing is paid for twice.
 */
import assert from 'node:assert/strict';
import { ExchangeReplay, type ExchangeRecord } from '../../src/capabilities/model/exchange-log.ts';

const call = { role: 'product-manager', action: 'write_prd', key: null };
const attempt = (n: number, ok: boolean, reply = ok ? '{}' : 'not json', occurrence = 0): ExchangeRecord => ({
  ...call,
  occurrence,
  attempt: n,
  reply,
  usage: { promptTokens: 10, completionTokens: 5 },
  usageCounted: false,
  costUsd: null,
  retries: 0,
  ok,
  ms: 1,
});

describe('exchange replay', () => {
  it('replays a round that ended valid', () => {
    const replay = new ExchangeReplay([attempt(1, false), attempt(2, true)]);
    assert.deepEqual(
      replay.round(call, 0, 3).map((r) => [r.attempt, r.ok]),
      [
        [1, false],
        [2, true],
      ],
    );
  });

  it('does not replay a round whose every allowed attempt failed: the step is asked again', () => {
    const replay = new ExchangeReplay([attempt(1, false), attempt(2, false), attempt(3, false)]);
    assert.deepEqual(replay.round(call, 0, 3), []);
  });

  it('replays a round cut short by a crash (attempts left), to be carried on', () => {
    const replay = new ExchangeReplay([attempt(1, false)]);
    assert.deepEqual(
      replay.round(call, 0, 3).map((r) => r.attempt),
      [1],
    );
  });

  it('answers from the round asked after a restart, not the failed one before it', () => {
    const replay = new ExchangeReplay([attempt(1, false), attempt(2, false), attempt(3, false), attempt(1, false, 'again not json'), attempt(2, true)]);
    assert.deepEqual(
      replay.round(call, 0, 3).map((r) => [r.attempt, r.reply]),
      [
        [1, 'again not json'],
        [2, '{}'],
      ],
    );
  });

  it('keeps each occurrence of a call apart', () => {
    const replay = new ExchangeReplay([attempt(1, true, '{"a":1}', 0), attempt(1, false, 'x', 1), attempt(2, false, 'y', 1), attempt(3, false, 'z', 1)]);
    assert.equal(replay.round(call, 0, 3).length, 1);
    assert.equal(replay.round(call, 1, 3).length, 0);
  });
});

describe('exchange replay of cut-off replies', () => {
  it('asks again a step whose replies kept stopping at the output limit, though attempts were left', () => {
    const cut = { ...attempt(1, false), finishReason: 'length' };
    const replay = new ExchangeReplay([cut, { ...attempt(2, false), finishReason: 'length' }]);
    assert.deepEqual(replay.round(call, 0, 3), []);
  });
});
