/**
 * Progress of a long reply (issue 29, Must 4): the phase, the tokens so far and their rate, reported at
 * most once a second per call (and at once when the phase changes), and drawn on a terminal's status
 * line that every other line clears first and redraws after.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import stringWidth from 'string-width';
import { describeProgress, LiveStatus } from '../../../../src/apps/console/index.ts';
import { type ProgressReport, progressReporter } from '../../../../src/capabilities/model/call-progress.ts';
import type { RunEvent } from '../../../../src/company/index.ts';

/** A terminal stream that keeps what was written. */
function terminal(columns = 80): NodeJS.WriteStream & { written: () => string } {
  const stream = new PassThrough() as unknown as NodeJS.WriteStream & { written: () => string };
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  Object.assign(stream, { isTTY: true, columns, written: () => text });
  return stream;
}

describe('call progress', () => {
  it('reports the first of each phase at once, then at most once a second, with the rate since writing began', () => {
    let clock = 1_000;
    const reports: ProgressReport[] = [];
    const tell = progressReporter(
      (r) => reports.push(r),
      () => clock,
    );
    tell({ phase: 'reading', tokens: 0, promptTokens: 788 });
    clock += 4_000;
    tell({ phase: 'writing', tokens: 1 });
    for (let token = 2; token <= 60; token++) {
      clock += 50;
      tell({ phase: 'writing', tokens: token });
    }
    assert.deepEqual(
      reports.map((r) => [r.phase, r.tokens, r.elapsedMs]),
      [
        ['reading', 0, 0],
        ['writing', 1, 4000],
        ['writing', 21, 5000],
        ['writing', 41, 6000],
      ],
    );
    assert.equal(reports[0]!.promptTokens, 788);
    assert.equal(reports[1]!.tokensPerSecond, null, 'no rate from one token');
    assert.equal(reports[3]!.tokensPerSecond, 41 / 2);
    assert.equal(reports[3]!.promptTokens, 788, 'the prompt read stays known');
  });

  it('says what a call is doing in words', () => {
    const base = { tokens: 0, tokensPerSecond: null, promptTokens: null, elapsedMs: 0 };
    assert.equal(describeProgress({ ...base, phase: 'reading', promptTokens: 2143 }, 65_000), 'reading the prompt (2143 tokens), 1:05');
    assert.equal(describeProgress({ ...base, phase: 'writing', tokens: 120, tokensPerSecond: 6.14 }, 21_000), 'writing 120 tokens, 6.1 tokens/s, 0:21');
    assert.equal(describeProgress({ ...base, phase: 'waiting' }, 1_800_000), 'waiting for the model, 30:00');
  });

  it('draws the run’s time, tokens and cost and the steps under way on one line, clears it for every other line, and counts the time on between reports', () => {
    let clock = 0;
    const stream = terminal(60);
    const live = LiveStatus.forTerminal(stream, () => clock)!;
    const out: string[] = [];
    const io = live.wrap({ out: (line) => stream.write(`${line}\n`) && out.push(line), err: () => {} });
    const call = { role: 'engineer', action: 'write_file', key: 'src/a.js' };
    const model = (event: Extract<RunEvent, { kind: 'model' }>['event']): RunEvent => ({ kind: 'model', event });
    const record = (promptTokens: number, completionTokens: number, costUsd: number | null) => ({
      ...call,
      promptTokens,
      completionTokens,
      counted: false,
      repairs: 0,
      retries: 0,
      costUsd,
      ms: 1,
      ok: true,
    });
    live.observe(model({ kind: 'call-start', call: { role: 'pm', action: 'write_prd', key: null } }));
    clock = 1_000;
    // Whether the model has a price is known from its first reply: no cost is said before it.
    assert.equal(live.text(200), '⋯ 0:01 · 0 tokens · pm write_prd 0:01');
    clock = 2_000;
    live.observe(model({ kind: 'call-end', call: { role: 'pm', action: 'write_prd', key: null }, record: { ...record(1_200, 300, 0.0025), role: 'pm' } }));
    live.observe(model({ kind: 'call-start', call }));
    live.observe({ kind: 'tests-start', role: 'qa', detail: 'round 1: node --test' });
    clock = 3_000;
    assert.equal(live.text(200), '⋯ 0:03 · 1,500 tokens · cost $0.0025 · engineer write_file src/a.js 0:01 · qa tests round 1: node --test 0:01');
    live.observe({ kind: 'tests-end', role: 'qa', detail: 'round 1: passed', passed: true });
    live.observe(model({ kind: 'call-progress', call, progress: { phase: 'writing', tokens: 12, tokensPerSecond: 3, promptTokens: 500, elapsedMs: 4_000 } }));
    clock = 12_000;
    assert.equal(live.text(200), '⋯ 0:12 · 1,500 tokens · cost $0.0025 · engineer write_file src/a.js: writing 12 tokens, 3.0 tokens/s, 0:13');
    assert.equal(live.text(40), '⋯ 0:12 · 1,500 tokens · cost $0.0025 ·…', 'cut to the width with "…", the totals first');
    io.out('engineer        ✓ write_file src/b.js');
    live.observe(model({ kind: 'call-end', call, record: record(10, 10, null) }));
    assert.match(live.text(200), /^⋯ 0:12 · 1,520 tokens · cost unknown$/, 'a call of unknown price makes the cost unknown');
    live.close();
    const written = stream.written();
    assert.match(written, /\r\x1b\[2Kengineer {8}✓ write_file src\/b\.js\n/, 'the status is cleared before a line');
    assert.ok(
      written.split('\r\x1b[2K').every((drawn) => stringWidth(drawn.split('\n').at(-1)!) < 60),
      'each status drawn fits the terminal',
    );
    assert.ok(written.endsWith('\r\x1b[2K'), 'and gone at the end');
    assert.equal(
      LiveStatus.forTerminal(Object.assign(new PassThrough(), { isTTY: false }) as unknown as NodeJS.WriteStream),
      null,
      'no status line off a terminal',
    );
  });

  it("counts a resumed run's earlier tokens, cost and time in its totals", () => {
    let clock = 100_000;
    const live = LiveStatus.forTerminal(terminal(200), () => clock)!;
    const start: RunEvent = { kind: 'start', project: 'p', projectDir: '/p', model: 'm', roles: ['pm'] };
    live.observe({ ...start, earlier: { tokens: 40_000, costUsd: 0.25, wallMs: 65_000 } } as RunEvent);
    const call = { role: 'pm', action: 'write_prd', key: null };
    live.observe({ kind: 'model', event: { kind: 'call-start', call } });
    clock += 2_000;
    const record = { ...call, promptTokens: 900, completionTokens: 100, counted: false, repairs: 0, retries: 0, costUsd: 0.01, ms: 1, ok: true };
    live.observe({ kind: 'model', event: { kind: 'call-end', call, record } });
    assert.equal(live.text(200), '⋯ 1:07 · 41,000 tokens · cost $0.2600');
    const fresh = LiveStatus.forTerminal(terminal(200), () => clock)!;
    fresh.observe(start);
    assert.equal(fresh.text(200), '⋯ 0:00 · 0 tokens', 'a new run starts from nothing, its cost not yet known');
    live.close();
    fresh.close();
  });
});
