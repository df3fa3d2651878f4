/** A change task graph checked against the work tree: each refusal says what is wrong and what to do. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { changeTaskProblems, MAX_EDIT_BYTES } from '../../../../src/capabilities/change/check-change-tasks.ts';
import { nearestPath } from '../../../../src/capabilities/change/nearest-path.ts';
import type { ChangeTask } from '../../../../src/documents/index.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

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

describe('change tasks: a path that does not exist gets the nearest one', () => {
  after(removeTempDirs);
  const files = ['README.md', 'src/greet.js', 'src/lib/util.js', 'test/util.js', 'docs/guide.md', 'package.json'];

  it('finds the file in another case, another folder, with a slip or another extension', () => {
    assert.equal(nearestPath('Readme.md', files), 'README.md');
    assert.equal(nearestPath('readme.MD', files), 'README.md');
    assert.equal(nearestPath('greet.js', files), 'src/greet.js');
    assert.equal(nearestPath('lib/greet.js', files), 'src/greet.js');
    assert.equal(nearestPath('src/greet.ts', files), 'src/greet.js');
    assert.equal(nearestPath('src/gret.js', files), 'src/greet.js');
    assert.equal(nearestPath('pakage.json', files), 'package.json');
  });

  it('suggests nothing when nothing is near, or when two files are equally likely', () => {
    assert.equal(nearestPath('src/parser.py', files), null);
    assert.equal(nearestPath('CHANGELOG.md', files), null);
    assert.equal(nearestPath('util.js', files), null, 'src/lib/util.js or test/util.js: not a guess to make');
    assert.equal(nearestPath('a', files), null);
    assert.equal(nearestPath('Readme.md', []), null);
  });

  it('names the nearest file in the refusal the Architect reads, and keeps "op add" for a file that is new', async () => {
    const root = await tempDir();
    await fs.mkdir(path.join(root, 'src'));
    await fs.writeFile(path.join(root, 'README.md'), '# greetings\n');
    await fs.writeFile(path.join(root, 'src', 'greet.js'), 'export const greet = () => "hi";\n');
    execFileSync('git', ['init', '--quiet'], { cwd: root });
    execFileSync('git', ['add', '.'], { cwd: root });
    const problems = await changeTaskProblems(root, {
      tasks: [task('Readme.md', 'modify'), task('greet.js', 'delete'), task('src/hello.js', 'rename', 'src/gret.js'), task('src/fresh.js', 'modify')],
    });
    assert.deepEqual(problems, [
      '"Readme.md" does not exist in the repository; did you mean "README.md"? (op add is for a file that does not exist yet)',
      '"greet.js" does not exist: there is nothing to delete; did you mean "src/greet.js"?',
      '"src/gret.js" does not exist in the repository; did you mean "src/greet.js"?',
      '"src/fresh.js" does not exist in the repository: use op add to create it',
    ]);
  });
});
