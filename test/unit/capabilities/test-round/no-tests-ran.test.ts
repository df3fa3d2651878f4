/**
 * "No tests ran" is said of a run that found no test (src/capabilities/test-round/test-round.ts), never of
 * one whose test files failed to load: jest's `Test suite failed to run` with `Tests: 0 total` is a runner
 * that could not load what a test imports (a sibling package whose dist/ no build wrote, in changesets'
 * shape), and the base's first cause says that (runner-start.ts), not a wrong pattern or folder.
 */
import assert from 'node:assert/strict';
import { parseTestOutput } from '../../../../src/capabilities/test-round/parse-test-output.ts';
import { runnerStart } from '../../../../src/capabilities/test-round/runner-start.ts';
import { noTestsRan } from '../../../../src/capabilities/test-round/test-round.ts';

/** jest 29's output when the one test file matched cannot import a workspace sibling (changesets at 00789ad, no build). */
const UNLOADED = `FAIL packages/git/src/index.test.ts
  ● Test suite failed to run

    Cannot find module '@changesets/test-utils' from 'packages/git/src/index.test.ts'

    > 5 | import { gitdir, tempdir } from "@changesets/test-utils";
        | ^

      at Resolver._throwModNotFoundError (node_modules/jest-resolve/build/resolver.js:425:11)

Test Suites: 1 failed, 1 total
Tests:       0 total
Snapshots:   0 total
Time:        4.489 s
Ran all test suites matching /packages\\/git/i.
`;

const NONE_FOUND = 'No tests found, exiting with code 1\nRun with `--passWithNoTests` to exit with code 0\nTest Suites: 0 total\nTests:       0 total\n';

describe('no tests ran, or none could load', () => {
  it('says a suite that failed to load is one, with the import it could not find, not that no test was found', () => {
    const read = parseTestOutput(UNLOADED);
    assert.equal(noTestsRan(read, ['npx', 'jest', 'packages/git'], 1), null);
    assert.deepEqual(runnerStart(read, 1, UNLOADED), {
      started: false,
      line: "no test could be loaded, so none ran: Cannot find module '@changesets/test-utils'",
    });
  });

  it('still says no tests ran when the runner found none and nothing failed', () => {
    assert.match(noTestsRan(parseTestOutput(NONE_FOUND), ['npx', 'jest', 'lib'], 1)?.message ?? '', /^`npx jest lib` ran 0 tests \(exit code 1\)/);
  });
});
