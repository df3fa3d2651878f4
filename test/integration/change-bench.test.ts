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

  it('reports prompt tokens per call for each repository size, the edit prompt growing only with the bounded map', async () => {
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
    // Every request of a change opens with the run's documents, the repository's bounded map among them (for
    // a provider's cache): an edit and its review grow by what the map grows, as the first prompt does
    // (the map and the request), and by nothing else of the repository.
    const grown = (action: string) => rows[1]!.byAction[action]! - rows[0]!.byAction[action]!;
    assert.ok(grown('write_change_request') > 0, 'the map of 40 files is longer than that of 3');
    assert.equal(grown('edit_file'), grown('write_change_request'), 'an edit is sent its file and the map, not the repository');
    assert.equal(grown('review_edit'), grown('write_change_request'), 'a review is sent its diff and the map, not the repository');
    assert.match(stdout, /prompt tokens\/call/);
  });
});
