/**
 * `sopworks review` and the timeline say what every message type carries in words: the change run's
 * documents, approvals and dependency installs too, and never raw JSON — not for a type it does not
 * know, nor for a payload of the wrong shape.
 */
import assert from 'node:assert/strict';
import { summarizeMessage } from '../../../../src/apps/review/message-summary.ts';
import { knownMessageTypes } from '../../../../src/company/index.ts';
import type { Message } from '../../../../src/engine/board/index.ts';

const message = (type: string, payload: unknown): Message =>
  ({ id: 'msg-000001', seq: 1, type, from: 'someone', to: 'all', causedBy: [], payload, createdAt: '2024-05-01T12:00:00.000Z' }) as Message;

const report = {
  round: 1,
  command: ['npm', 'test'],
  passed: true,
  exitCode: 0,
  timedOut: false,
  counts: { passed: 3, failed: 0 },
  failures: [],
  signature: 's',
  output: '',
  sandbox: null,
};

/** The types described here; the others have their own tests (review-report, review-html). */
const EXPECTED: Record<string, [unknown, RegExp]> = {
  Answers: [
    {
      role: 'product-manager',
      round: 0,
      answers: [
        { question: 'Read stdin?', why: null, answer: 'yes' },
        { question: 'Table or JSON?', why: 'the output format', answer: '' },
      ],
    },
    /^answered 2 questions of product-manager: Read stdin\? — yes; Table or JSON\? — no preference$/,
  ],
  Approval: [
    { role: 'architect', gate: 'design', key: null, round: 0, approved: false, feedback: 'use SQLite' },
    /^rejected the design of architect: use SQLite$/,
  ],
  Dependencies: [
    { ...report, ecosystem: 'npm', lockfile: { path: 'package-lock.json', content: '{}' }, scriptsSkipped: ['esbuild'] },
    /^npm dependencies installed; package-lock\.json locked; install scripts kept from running: esbuild$/,
  ],
  RepositoryMap: [
    {
      base: 'abcdef0123456789',
      branch: 'b',
      changeDir: 'docs/changes/1-x',
      fileCount: 12,
      tree: 'a\nb',
      manifests: [],
      readmes: [],
      interfaces: [{ path: 'a', interface: 'f()' }],
    },
    /^map of the repository at abcdef012345: 12 files, 1 interface$/,
  ],
  ChangeRequest: [
    { title: 'Add --json', summary: 's', changes: ['a', 'b'], acceptanceCriteria: ['c'], mustKeepWorking: [], outOfScope: [] },
    /^Add --json: 2 changes, 1 acceptance criterion$/,
  ],
  ChangeTaskGraph: [
    { tasks: [{ file: 'src/b.js', op: 'rename', from: 'src/a.js', description: 'd', dependsOn: [] }] },
    /^1 task: rename src\/a\.js → src\/b\.js$/,
  ],
  Removal: [{ path: 'old.js', renamedTo: null, content: null }, /^old\.js removed$/],
  BaselineTests: [{ ...report, ran: true }, /^the tests on the base passed \(3 passed, 0 failed\)$/],
  Coverage: [
    {
      round: 2,
      criteria: [
        { id: 'AC-1', text: 'counts words', priority: 'P0', status: 'proven', tests: [{ name: 'AC-1 counts', outcome: 'passed' }] },
        { id: 'AC-2', text: 'sorts them', priority: 'P0', status: 'untested', tests: [] },
        { id: 'AC-3', text: 'prints JSON', priority: 'P1', status: 'failing', tests: [{ name: 'AC-3 json', outcome: 'failed' }] },
      ],
      testsNamed: 2,
      strayCitations: [],
    },
    /^after round 2: 1 of 3 criteria proven \(P0: 1 of 2; unmet: AC-2 untested\)$/,
  ],
  ManualChecks: [
    { checks: [{ id: 'AC-4', reason: 'prose', artifacts: ['README.md', 'docs/guide.md'], lookFor: 'install steps' }] },
    /^to review by reading: AC-4 \(README\.md, docs\/guide\.md\)$/,
  ],
  ManualVerdicts: [{ verdicts: [{ id: 'AC-4', verdict: 'rejected', reason: 'no install steps' }] }, /^AC-4 rejected: no install steps$/],
};
const DESCRIBED_ELSEWHERE = [
  'Requirement',
  'PRD',
  'Design',
  'TaskGraph',
  'Code',
  'CodeComplete',
  'Tests',
  'TestReport',
  'BugReport',
  'Document',
  'Outcome',
  'DesignDelta',
];

describe('review: every message type in words', () => {
  it('describes each type this test knows, and knows every type the board accepts', () => {
    for (const [type, [payload, words]] of Object.entries(EXPECTED)) assert.match(summarizeMessage(message(type, payload)), words, type);
    assert.deepEqual([...Object.keys(EXPECTED), ...DESCRIBED_ELSEWHERE].sort(), [...knownMessageTypes()].sort(), 'a new message type needs its words');
  });

  it('never prints raw JSON: not for a payload of the wrong shape, nor for a type it does not know', () => {
    for (const type of [...knownMessageTypes(), 'SomethingNew']) {
      const summary = summarizeMessage(message(type, { note: 'hello\nworld', items: [1, 2], nested: { a: 1 } }));
      assert.doesNotMatch(summary, /^[[{]|"\w+":/, `${type}: ${summary}`);
    }
    assert.equal(
      summarizeMessage(message('SomethingNew', { note: 'hello\nworld', items: [1, 2], nested: { a: 1 } })),
      'note: hello; items: 2 items; nested: …',
    );
  });
});
