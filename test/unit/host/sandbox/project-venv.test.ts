/**
 * A project's .venv as the sandbox puts it on a command's path: its bin first, and the source folders its
 * install's `.pth` names — those of the project only.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_PTH, projectVenv } from '../../../../src/host/sandbox/project-venv.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

describe("a project's venv on the sandbox's path", () => {
  after(removeTempDirs);

  it('names the source folders of the install’s .pth as the sandbox sees them, and nothing outside the project', async () => {
    const root = await tempDir('sopworks-venv-');
    const site = path.join(root, '.venv', 'lib', 'python3.12', 'site-packages');
    await fs.mkdir(site, { recursive: true });
    await fs.mkdir(path.join(root, 'src'));
    await fs.mkdir(path.join(root, 'lib'));
    await fs.writeFile(path.join(root, '.venv', 'pyvenv.cfg'), 'home = /usr/bin\n');
    await fs.writeFile(
      path.join(site, PROJECT_PTH),
      ['../../../../src', '../../../../../outside', '/etc', '../../../../missing', '../../../../lib', ''].join('\n'),
    );
    assert.deepEqual(projectVenv(root, '/project'), {
      root: '/project/.venv',
      bin: '/project/.venv/bin',
      sourcePath: ['/project/src', '/project/lib'],
      installed: false,
    });
  });

  it('is installed once a package is in its site-packages, not with only the .pth an install that failed left', async () => {
    const root = await tempDir('sopworks-venv-');
    const site = path.join(root, '.venv', 'lib', 'python3.11', 'site-packages');
    await fs.mkdir(path.join(site, '__pycache__'), { recursive: true });
    await fs.writeFile(path.join(root, '.venv', 'pyvenv.cfg'), 'home = /usr/bin\n');
    await fs.writeFile(path.join(site, PROJECT_PTH), '../../../../src\n');
    assert.equal(projectVenv(root, '/project')?.installed, false);
    await fs.mkdir(path.join(site, 'pytest'));
    assert.equal(projectVenv(root, '/project')?.installed, true);
  });

  it('has no source folder without the .pth, and no venv without pyvenv.cfg', async () => {
    const root = await tempDir('sopworks-venv-');
    assert.equal(projectVenv(root, '/project'), null);
    await fs.mkdir(path.join(root, '.venv'));
    await fs.writeFile(path.join(root, '.venv', 'pyvenv.cfg'), 'home = /usr/bin\n');
    assert.deepEqual(projectVenv(root, root)?.sourcePath, []);
  });
});
