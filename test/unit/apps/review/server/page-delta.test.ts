import assert from 'node:assert/strict';
import type { RunPage } from '../../../../../src/apps/review/run-page.ts';
import { pageDelta, pageIdentity } from '../../../../../src/apps/review/server/page-delta.ts';

const page = (messages: number, documents: unknown[] = []): RunPage =>
  ({
    name: 'r',
    info: { startedAt: '2026-01-01T00:00:00.000Z' },
    timeline: Array.from({ length: messages }, (_, i) => ({ id: `msg-${i + 1}`, createdAt: `t${i}` })),
    documents,
    code: [],
  }) as unknown as RunPage;

const ask = (params: Record<string, string>) => new URLSearchParams(params);

describe('run page deltas: a live change sends what changed', () => {
  it('sends everything to a page that holds nothing, with the versions to send back', () => {
    const delta = pageDelta(page(3, ['prd']), ask({}));
    assert.equal(delta.timeline && (delta.timeline as unknown[]).length, 3);
    assert.deepEqual(delta.documents, ['prd']);
    assert.deepEqual(Object.keys(delta.versions).sort(), ['code', 'documents', 'info', 'name']);
  });

  it('sends only the new messages and the sections whose version changed', () => {
    const first = pageDelta(page(3, ['prd']), ask({}));
    const have = Object.entries(first.versions)
      .map(([k, v]) => `${k}.${v}`)
      .join(',');
    const next = pageDelta(page(4, ['prd', 'design']), ask({ identity: first.identity, have, timelineFrom: '3' }));
    assert.deepEqual(
      (next.timeline as { id: string }[]).map((m) => m.id),
      ['msg-4'],
    );
    assert.deepEqual(next.documents, ['prd', 'design']);
    assert.equal(next.code, undefined);
    assert.equal(next.timelineTotal, 4);
  });

  it('sends everything again for another run under the same name (a --force re-run), or a board that shrank', () => {
    const first = pageDelta(page(3), ask({}));
    const have = Object.entries(first.versions)
      .map(([k, v]) => `${k}.${v}`)
      .join(',');
    const rerun = page(1);
    (rerun.info as { startedAt: string }).startedAt = '2026-02-01T00:00:00.000Z';
    const delta = pageDelta(rerun, ask({ identity: first.identity, have, timelineFrom: '3' }));
    assert.notEqual(delta.identity, first.identity);
    assert.equal(delta.timelineFrom, 0);
    assert.ok('code' in delta);
    assert.equal(pageDelta(page(2), ask({ identity: pageIdentity(page(2)), timelineFrom: '5' })).timelineFrom, 0);
  });
});
