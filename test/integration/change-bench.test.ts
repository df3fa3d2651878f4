/** `npm run bench:change`, small: a row per size with the prompt tokens per call, each run ending done. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../helpers/paths.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const exec = promisify(execFile);

describe('the change benchmark', function () {
  this.timeout(180_000);
  after(removeTempDirs);

  it('reports prompt tokens per call for each repository size, the edit prompt the same whatever the size', async () => {
    const json = path.join(await tempDir(), 'rows.json');
    const { stdout } = await exec(process.execPath, ['--import', 'tsx', 'bench/change-prompts.ts', '--sizes', '3,40', '--json', json], { cwd: ROOT });
    const rows = JSON.parse(await fs.readFile(json, 'utf8')) as {
      files: number;
      outcome: string;
      calls: number;
      promptTokensPerCall: number;
      byAction: Record<string, number>;
    }[];
    assert.deepEqual(
      rows.map((r) => [r.files, r.outcome, r.calls]),
      [
        [3, 'done', 7],
        [40, 'done', 7],
      ],
    );
    assert.ok(rows.every((r) => r.promptTokensPerCall > 0));
    assert.equal(rows[0]!.byAction.edit_file, rows[1]!.byAction.edit_file, 'an edit is sent its file, not the repository');
    assert.match(stdout, /prompt tokens\/call/);
  });
});
