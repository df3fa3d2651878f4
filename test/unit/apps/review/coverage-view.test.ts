/**
 * The workbench's coverage view (src/apps/review/coverage-view.ts): each test citing a criterion is found
 * in the test file that holds it and in the lines of its round's output that name it, whatever the runner
 * printed — pytest's file::class::test, unittest's `test_x (module.Class.test_x)`, Go's TestX, a title.
 */
import assert from 'node:assert/strict';
import { coverageViewOf } from '../../../../src/apps/review/coverage-view.ts';
import type { Message } from '../../../../src/engine/board/index.ts';

const message = (seq: number, type: string, payload: unknown): Message =>
  ({ id: `msg-${String(seq).padStart(6, '0')}`, seq, type, from: 'qa', to: 'all', causedBy: [], payload, createdAt: '2026-01-01T00:00:00.000Z' }) as Message;

const criterion = (id: string, tests: { name: string; outcome: 'passed' | 'failed' }[]) => ({
  id,
  text: `${id} holds`,
  priority: 'P0',
  status: tests.some((t) => t.outcome === 'failed') ? 'failing' : tests.length > 0 ? 'proven' : 'untested',
  tests,
});

function run(output: string, files: { path: string; content: string }[], criteria: ReturnType<typeof criterion>[]): Message[] {
  return [
    message(1, 'Tests', { files }),
    message(2, 'TestReport', { round: 1, kind: 'tests', output }),
    message(3, 'Coverage', { round: 1, criteria, testsNamed: 3, strayCitations: [] }),
  ];
}

describe("the workbench's coverage view", () => {
  it('finds a pytest test by its file, and the output lines naming it', () => {
    const view = coverageViewOf(
      run(
        'tests/test_cli.py::TestCli::test_ac1_counts PASSED\ntests/test_cli.py::TestCli::test_ac2_empty FAILED\nE   assert 1 == 0',
        [{ path: 'tests/test_cli.py', content: 'class TestCli:\n    def test_ac1_counts(self): ...\n    def test_ac2_empty(self): ...\n' }],
        [
          criterion('AC-1', [{ name: 'tests/test_cli.py::TestCli::test_ac1_counts', outcome: 'passed' }]),
          criterion('AC-2', [{ name: 'tests/test_cli.py::TestCli::test_ac2_empty', outcome: 'failed' }]),
        ],
      ),
    )!;
    assert.equal(view.messageId, 'msg-000003');
    assert.equal(view.roundMessageId, 'msg-000002');
    assert.equal(view.summary, '1 of 2 criteria proven (P0: 1 of 2; unmet: AC-2 failing)');
    assert.deepEqual(
      view.criteria.map((c) => c.tests.map((t) => [t.file, t.output])),
      [
        [['tests/test_cli.py', ['tests/test_cli.py::TestCli::test_ac1_counts PASSED']]],
        [['tests/test_cli.py', ['tests/test_cli.py::TestCli::test_ac2_empty FAILED']]],
      ],
    );
  });

  it("finds unittest's and Go's tests by the identifier that starts their name, in the right one of several files", () => {
    const view = coverageViewOf(
      run(
        'test_kw1_kept (tests.test_kept.KeptTest.test_kw1_kept) ... ok\n=== RUN   TestAC1Expand\n--- PASS: TestAC1Expand (0.00s)',
        [
          { path: 'tests/test_other.py', content: 'def test_other(): ...\n' },
          { path: 'tests/test_kept.py', content: 'class KeptTest(unittest.TestCase):\n    def test_kw1_kept(self): ...\n' },
          { path: 'expand_test.go', content: 'func TestAC1Expand(t *testing.T) {}\n' },
        ],
        [
          criterion('AC-1', [{ name: 'TestAC1Expand', outcome: 'passed' }]),
          criterion('KW-1', [{ name: 'test_kw1_kept (tests.test_kept.KeptTest.test_kw1_kept)', outcome: 'passed' }]),
          criterion('AC-2', []),
        ],
      ),
    )!;
    assert.deepEqual(
      view.criteria.map((c) => [c.id, c.status, c.tests.map((t) => [t.file, t.output.length])]),
      [
        ['AC-1', 'proven', [['expand_test.go', 2]]],
        ['KW-1', 'proven', [['tests/test_kept.py', 1]]],
        ['AC-2', 'untested', []],
      ],
    );
  });

  it('says when no file of the run holds a test, and is null before any matrix', () => {
    const view = coverageViewOf(
      run(
        'ok 1 - AC-1: prints',
        [{ path: 'test/a.test.js', content: "test('something else', () => {});\n" }],
        [criterion('AC-1', [{ name: 'AC-1: prints', outcome: 'passed' }])],
      ),
    )!;
    assert.deepEqual(view.criteria[0]!.tests[0], { name: 'AC-1: prints', outcome: 'passed', file: null, output: ['ok 1 - AC-1: prints'] });
    assert.equal(coverageViewOf([message(1, 'Tests', { files: [] })]), null);
  });

  it("shows a manual check's verdict, its reason and the files it read, and a matrix from before manual checks as none", () => {
    const manual = { reason: 'prose', artifacts: ['README.md'], lookFor: 'install steps', verdict: 'accepted', verdictReason: 'all there' };
    const view = coverageViewOf(run('', [], [{ ...criterion('AC-1', []), status: 'proven', manual } as never]))!;
    assert.deepEqual(view.criteria[0]!.manual, manual);
    assert.equal(view.summary, '1 of 1 criteria proven (P0: 1 of 1; manual: AC-1 accepted)');
    assert.equal(coverageViewOf(run('', [], [criterion('AC-1', [])]))!.criteria[0]!.manual, null);
  });
});
