/**
 * What a resumed run answers from the exchange log: the last round of a call — unless that round failed
 * the step with every attempt spent, which is asked again. A round cut short by a crash is replayed and
 * carried on, so nothing is paid for twice.
 */
import assert from 'node:assert/strict';
import { ExchangeReplay } from '../../../../src/capabilities/model/exchange-log.ts';
import type { ExchangeRecord } from '../../../../src/capabilities/model/exchange-record.ts';

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
  // Each recorded attempt produced 5 completion tokens; a request may produce 5.
  const limits = { perStep: 10, perRequest: 5 };
  const cut = (n: number) => ({ ...attempt(n, false), finishReason: 'length' });

  it('asks again a step whose cut-off replies used up its allowance, though attempts were left', () => {
    const replay = new ExchangeReplay([cut(1), cut(2)]);
    assert.deepEqual(replay.round(call, 0, 3, limits), []);
  });

  it('carries on a round stopped right after a cut-off reply, while the allowance has room', () => {
    const replay = new ExchangeReplay([cut(1)]);
    assert.deepEqual(
      replay.round(call, 0, 3, limits).map((r) => r.attempt),
      [1],
    );
  });

  it('carries on a round of cut-off replies from a provider that never cuts off (a scripted one): it has no allowance', () => {
    const replay = new ExchangeReplay([cut(1), cut(2)]);
    assert.deepEqual(
      replay.round(call, 0, 3).map((r) => r.attempt),
      [1, 2],
    );
  });
});
