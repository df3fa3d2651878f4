/** A change task graph checked against the work tree: each refusal says what is wrong and what to do. */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { changeTaskProblems, MAX_EDIT_BYTES } from '../../src/capabilities/change/check-change-tasks.ts';
import type { ChangeTask } from '../../src/documents/change-schemas.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const task = (file: string, op: ChangeTask['op'], from: string | null = null, dependsOn: string[] = []): ChangeTask => ({
  file,
  op,
  from,
  description: 'do it',
  dependsOn,
});

describe('change tasks: the check against the work tree', () => {
  after(removeTempDirs);

  it('accepts tasks that fit the files as they are', async () => {
    const root = await tempDir();
    await fs.mkdir(path.join(root, 'src'));
    await fs.writeFile(path.join(root, 'src', 'a.js'), 'export const a = 1;\n');
    await fs.writeFile(path.join(root, 'src', 'old.js'), 'x\n');
    await fs.writeFile(path.join(root, 'src', 'gone.js'), 'x\n');
    const problems = await changeTaskProblems(root, {
      tasks: [
        task('src/a.js', 'modify'),
        task('src/b.js', 'add', null, ['src/a.js']),
        task('src/new.js', 'rename', 'src/old.js'),
        task('src/gone.js', 'delete'),
      ],
    });
    assert.deepEqual(problems, []);
  });

  it('refuses, with the reason, what cannot be done', async () => {
    const root = await tempDir();
    await fs.writeFile(path.join(root, 'big.txt'), 'x'.repeat(MAX_EDIT_BYTES + 1));
    await fs.writeFile(path.join(root, 'logo.png'), Buffer.from([137, 80, 0, 1]));
    await fs.writeFile(path.join(root, 'here.js'), '1\n');
    const problems = await changeTaskProblems(root, {
      tasks: [
        task('big.txt', 'modify'),
        task('logo.png', 'modify'),
        task('missing.js', 'modify'),
        task('here.js', 'add'),
        task('nothing.js', 'delete'),
        task('moved.js', 'rename'),
        task('c.js', 'add', null, ['unknown.js']),
      ],
    });
    assert.deepEqual(problems, [
      '"c.js" depends on unknown file "unknown.js"',
      `"big.txt" is too large to edit (${MAX_EDIT_BYTES + 1} bytes; the limit is ${MAX_EDIT_BYTES})`,
      '"logo.png" is a binary file: it cannot be edited as text',
      '"missing.js" does not exist in the repository: use op add to create it',
      '"here.js" already exists: use op modify to change it',
      '"nothing.js" does not exist: there is nothing to delete',
      '"moved.js": a rename needs `from`, the path it has now',
      '"moved.js" does not exist in the repository',
    ]);
  });
});
