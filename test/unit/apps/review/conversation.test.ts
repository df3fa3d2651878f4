import assert from 'node:assert/strict';
import { conversationsOf, draftText, unifiedDiff } from '../../../../src/apps/review/conversation.ts';
import type { IndexedExchange } from '../../../../src/apps/review/read-run.ts';
import type { Message } from '../../../../src/engine/board/index.ts';

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
let n = 0;
const exchange = (role: string, action: string, key: string | null, reply: string, ok = true, attempt = 1): IndexedExchange => ({
  index: n,
  exchange: { role, action, key, attempt, messages: [], reply, usage: { promptTokens: 1, completionTokens: 1 }, ok, at: at(n++) },
});
const message = (seq: number, type: string, from: string, payload: unknown): Message =>
  ({ id: `msg-${String(seq).padStart(6, '0')}`, seq, type, from, to: 'all', causedBy: [], payload, createdAt: at(n++) }) as Message;

describe('review conversations', () => {
  beforeEach(() => (n = 0));

  it('tells a file’s story in order: draft, review with issues, revision with its diff, approval, publication', () => {
    const exchanges = [
      exchange('engineer', 'write_file', 'src/a.js', '```js\nexport const a = 1;\n```'),
      exchange('engineer', 'review_file', 'src/a.js', 'Sure: {"approved": false, "issues": ["name it better", "add a test"]}'),
      exchange('engineer', 'revise_file', 'src/a.js', 'garbage', false),
      exchange('engineer', 'revise_file', 'src/a.js', '```js\nexport const answer = 1;\n```', true, 2),
      exchange('engineer', 'review_file', 'src/a.js', '{"approved": true, "issues": []}'),
    ];
    const messages = [message(1, 'Code', 'engineer', { path: 'src/a.js', content: 'export const answer = 1;\n', review: { approved: true, issues: [] } })];
    const [thread] = conversationsOf(messages, exchanges);
    assert.equal(thread!.subject, 'src/a.js');
    assert.deepEqual(
      thread!.entries.map((e) => e.kind),
      ['draft', 'review', 'revision', 'review', 'published'],
      'the invalid reply that was asked again is not part of it',
    );
    assert.deepEqual(thread!.entries[1]!.issues, ['name it better', 'add a test']);
    assert.equal(thread!.entries[1]!.approved, false);
    assert.match(thread!.entries[2]!.diff!, /-export const a = 1;\n\+export const answer = 1;/);
    assert.equal(thread!.entries[2]!.exchange, 3);
    assert.equal(thread!.entries[4]!.messageId, 'msg-000001');
    assert.equal(thread!.status, 'approved after 1 revision');
  });

  it('says when issues were left, a bug sent a file back, and a person decided', () => {
    const exchanges = [
      exchange('product-manager', 'write_prd', null, '{"projectName":"x"}'),
      exchange('product-manager', 'review_prd', null, '{"approved": false, "issues": ["vague"]}'),
      exchange('product-manager', 'revise_prd', null, '{"projectName":"y"}'),
      exchange('product-manager', 'review_prd', null, '{"approved": false, "issues": ["still vague"]}'),
      exchange('product-manager', 'revise_prd', null, '{"projectName":"z"}'),
    ];
    const messages = [
      message(1, 'Approval', 'client', { role: 'product-manager', gate: 'prd', key: null, round: 0, approved: false, feedback: 'shorter' }),
      message(2, 'BugReport', 'qa', { summary: 'b is wrong', failingTests: [], files: [{ path: 'src/b.js', problem: 'off by one' }] }),
    ];
    const threads = conversationsOf(messages, exchanges);
    const prd = threads.find((t) => t.subject === 'prd')!;
    assert.equal(prd.status, '1 issue left after 2 revisions; rejected by a person; not published yet');
    assert.equal(prd.entries.at(-1)!.text, 'shorter');
    assert.match(prd.entries[2]!.diff!, /-\s+"projectName": "x"\n\+\s+"projectName": "y"/, 'JSON drafts are compared pretty-printed');
    const b = threads.find((t) => t.subject === 'src/b.js')!;
    assert.deepEqual(
      b.entries.map((e) => [e.kind, e.who, e.text]),
      [['bug', 'qa', 'b is wrong — off by one']],
    );
  });

  it('compares drafts as text and says nothing when they are the same', () => {
    assert.equal(draftText('Here it is:\n```ts\nlet x;\n```\nDone.'), 'let x;\n');
    assert.equal(unifiedDiff('f', 'a\n', 'a\n'), null);
    assert.match(unifiedDiff('f', 'a\n', 'b\n', ['v1', 'v2'])!, /^--- a\/f\tv1\n\+\+\+ b\/f\tv2\n@@ -1,1 \+1,1 @@\n-a\n\+b/);
  });
});
