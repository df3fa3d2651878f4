/**
 * A test round's mark in the progress lines is the event's verdict (`passed`), never read from its text:
 * "round 3: failed (1 passed, 2 failed)" holds the word "passed" and is still a failure. Colours decide
 * the mark, so the printer runs in a child process with colours forced (picocolors reads them at import).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ROOT } from '../../../helpers/paths.ts';

const exec = promisify(execFile);

const PRINT = `
import { progressPrinter } from './src/apps/console/progress.ts';
const print = progressPrinter((line) => console.log(line));
print({ kind: 'tests-end', role: 'qa', detail: 'round 3: failed (1 passed, 2 failed)', passed: false });
print({ kind: 'tests-end', role: 'qa', detail: 'round 4: 3 of 3 tests green', passed: true });
`;

describe("progress lines: a test round's verdict", () => {
  it('marks a failed round red though its text says "passed", and a passed one green though it does not', async () => {
    const { stdout } = await exec(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', PRINT], {
      cwd: ROOT,
      env: { ...process.env, FORCE_COLOR: '1', NO_COLOR: '' },
    });
    const [failed, passed] = stdout.trimEnd().split('\n');
    const red = '\u001b[31m■';
    const green = '\u001b[32m■';
    assert.ok(failed?.includes(red) && !failed.includes(green), JSON.stringify(failed));
    assert.ok(passed?.includes(green) && !passed.includes(red), JSON.stringify(passed));
  });
});
