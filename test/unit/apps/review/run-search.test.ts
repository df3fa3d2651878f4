import assert from 'node:assert/strict';
import type { IndexedExchange } from '../../../../src/apps/review/read-run.ts';
import { searchRun } from '../../../../src/apps/review/run-search.ts';
import type { Message } from '../../../../src/engine/board/index.ts';

const messages = [
  {
    id: 'msg-000001',
    seq: 1,
    type: 'Requirement',
    from: 'client',
    to: 'all',
    causedBy: [],
    payload: { spec: 'count Words in files', project: 'wc' },
    createdAt: 't',
  },
  {
    id: 'msg-000002',
    seq: 2,
    type: 'Document',
    from: 'architect',
    to: 'all',
    causedBy: [],
    payload: { path: 'docs/notes.md', content: 'Tokenize on whitespace.' },
    createdAt: 't',
  },
] as unknown as Message[];
const exchanges: IndexedExchange[] = [
  {
    index: 0,
    exchange: {
      role: 'engineer',
      action: 'write_file',
      key: 'src/a.js',
      attempt: 1,
      messages: [{ role: 'user', content: 'Please tokenize carefully' }],
      reply: 'ok',
      usage: { promptTokens: 1, completionTokens: 1 },
      ok: true,
    },
  },
];

describe('searching a run', () => {
  it('finds a word in messages, the files they made and the exchanges, case-insensitively, saying where', () => {
    const result = searchRun(messages, exchanges, 'TOKENIZE');
    assert.deepEqual(
      result.hits.map((h) => [h.kind, h.target]),
      [
        ['message', 'msg-000002'],
        ['file', 'docs/notes.md'],
        ['exchange', '0'],
      ],
    );
    assert.match(result.hits[2]!.snippet, /Please tokenize carefully/);
    assert.equal(result.hits[2]!.title, 'exchange #1: engineer write_file src/a.js');
  });

  it('caps the hits and says so', () => {
    const result = searchRun(messages, exchanges, 'o', 2);
    assert.equal(result.hits.length, 2);
    assert.equal(result.truncated, true);
    assert.deepEqual(searchRun(messages, exchanges, '   ').hits, []);
  });
});
