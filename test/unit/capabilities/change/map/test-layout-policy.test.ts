/**
 * Where the runners look is where QA may write: every test file the change map recognises by the
 * runners' default patterns (node --test's root test.js, test-*.js, *_test.js; pytest's and unittest's;
 * Go's) is one the change policy lets QA write and keeps from the Engineer — and a source file that
 * only looks like one stays the Engineer's.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { isTestPath } from '../../../../../src/capabilities/change/map/test-layout.ts';
import { loadPolicy, writeRefusal } from '../../../../../src/capabilities/policy/index.ts';
import { ROOT } from '../../../../helpers/paths.ts';

const TESTS = [
  'test.js',
  'test.mjs',
  'test-merge.js',
  'lib/merge-test.cjs',
  'src/merge_test.ts',
  'src/merge.test.ts',
  'src/merge.spec.js',
  'test/helpers.js',
  '__tests__/merge.js',
  'tests.py',
  'pkg/test.py',
  'pkg/tests/ansi_test.py',
  'pkg/test_ansi.py',
  'conftest.py',
  'homedir_test.go',
];
const SOURCES = ['latest.js', 'src/contest.py', 'src/testing.py', 'lib/attest.mjs', 'src/merge.js', 'homedir.go', 'README.md'];

describe('test files by the runners’ patterns, and who may write them in a change', () => {
  it('recognises each runner default as a test file, which QA may write and the Engineer may not', async () => {
    const policy = await loadPolicy(path.join(ROOT, 'sops', 'change'));
    for (const file of TESTS) {
      assert.ok(isTestPath(file), `${file} is a test file`);
      assert.equal(writeRefusal(policy, 'qa', file), null, `QA may write ${file}`);
      assert.notEqual(writeRefusal(policy, 'engineer', file), null, `the Engineer may not write ${file}`);
    }
  });

  it('leaves a source file that merely contains "test" to the Engineer', async () => {
    const policy = await loadPolicy(path.join(ROOT, 'sops', 'change'));
    for (const file of SOURCES) {
      assert.ok(!isTestPath(file), `${file} is not a test file`);
      assert.equal(writeRefusal(policy, 'engineer', file), null, `the Engineer may write ${file}`);
      assert.notEqual(writeRefusal(policy, 'qa', file), null, `QA may not write ${file}`);
    }
  });
});
