/**
 * The two rules of the tests' layout, each broken on purpose in a tree of its own: test/unit/ mirrors src/
 * (scripts/check-test-layout.ts), and a test reaches inside only the unit whose mirror it sits in — any other
 * unit it uses through its face (`test-through-the-face` in .dependency-cruiser.cjs). Both run in
 * `npm run check:imports`.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { testLayoutProblems } from '../../scripts/check-test-layout.ts';
import { ROOT } from '../helpers/paths.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const exec = promisify(execFile);

function plant(root: string, files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.join(root, path.dirname(file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
}

/** A small src/ of two units with their faces, and bench/. */
const SOURCES = {
  'src/engine/run/index.ts': "export { loop } from './run-loop.ts';\n",
  'src/engine/run/run-loop.ts': 'export const loop = 1;\nexport const inner = 2;\n',
  'src/engine/board/index.ts': "export { board } from './message-board.ts';\n",
  'src/engine/board/message-board.ts': 'export const board = 3;\n',
  'bench/cpu-steal.ts': 'export const steal = 4;\n',
};

describe("the tests' layout", () => {
  after(removeTempDirs);

  it('holds in this repository', () => {
    assert.deepEqual(testLayoutProblems(ROOT), []);
  });

  it('fails on a flat unit test, a folder src/ lacks, a test beside the wrong file and a helper in test/unit/', async () => {
    const root = await tempDir('layout-');
    plant(root, {
      ...SOURCES,
      'test/unit/engine/run/run-loop.test.ts': '',
      'test/unit/engine/run/loop-order.test.ts': '',
      'test/unit/bench/cpu-steal.test.ts': '',
      'test/unit/flat.test.ts': '',
      'test/unit/engine/runs/decide.test.ts': '',
      'test/unit/engine/board/run-loop.test.ts': '',
      'test/unit/engine/run/helper.ts': '',
    });
    const problems = testLayoutProblems(root);
    const about = (file: string) => problems.filter((problem) => problem.startsWith(`${file}:`));
    assert.equal(problems.length, 4, problems.join('\n'));
    assert.match(about('test/unit/flat.test.ts')[0] ?? '', /mirrors src\/: git mv it to test\/unit\/<tier>\/<unit>\//);
    assert.match(about('test/unit/engine/runs/decide.test.ts')[0] ?? '', /src\/engine\/runs\/ does not exist/);
    assert.match(
      about('test/unit/engine/board/run-loop.test.ts')[0] ?? '',
      /named after src\/engine\/run\/run-loop\.ts: git mv it to test\/unit\/engine\/run\//,
    );
    assert.match(about('test/unit/engine/run/helper.ts')[0] ?? '', /holds tests only/);
  });

  it("fails on a test that reaches inside another unit, and passes its own unit's test and a face import", async function () {
    this.timeout(120_000);
    const root = await tempDir('faces-');
    const inner = (depth: number) => `import { inner } from '${'../'.repeat(depth)}src/engine/run/run-loop.ts';\nexport const x = inner;\n`;
    plant(root, {
      ...SOURCES,
      'test/unit/engine/run/run-loop.test.ts': inner(4),
      'test/unit/engine/board/message-board.test.ts': `${inner(4)}import { loop } from '../../../../src/engine/run/index.ts';\nexport const y = loop;\n`,
      'test/integration/runs.test.ts': inner(2),
      'test/helpers/run.ts': "import { loop } from '../../src/engine/run/index.ts';\nexport const z = loop;\n",
    });
    const depcruise = path.join(ROOT, 'node_modules', '.bin', 'depcruise');
    const config = path.join(ROOT, '.dependency-cruiser.cjs');
    const failed = await exec(depcruise, ['src', 'test', '--config', config, '--output-type', 'err'], { cwd: root }).then(
      () => null,
      (error: { stdout: string }) => error.stdout,
    );
    assert.ok(failed !== null, 'dependency-cruiser passed a test reaching past a face');
    const reached = [...failed.matchAll(/test-through-the-face: (\S+) → (\S+)/g)].map((m) => `${m[1]} → ${m[2]}`).sort();
    assert.deepEqual(reached, [
      'test/integration/runs.test.ts → src/engine/run/run-loop.ts',
      'test/unit/engine/board/message-board.test.ts → src/engine/run/run-loop.ts',
    ]);
  });
});
