/**
 * The install-time scripts a repository declares for itself, named when its tests could not start while
 * install scripts were off (changesets' root `postinstall: preconstruct dev` writes the `dist/` its
 * packages' tests import): npm's lifecycle order, and nothing from a manifest that is missing, broken or
 * a link out of the project.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ownInstallScripts } from '../../../../src/host/install/index.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

describe("a repository's own install scripts", () => {
  after(removeTempDirs);

  it("lists the root package's lifecycle scripts in the order npm runs them, and no other script", async () => {
    const dir = await tempDir('sopworks-own-scripts-');
    const scripts = {
      test: 'jest',
      prepare: 'husky',
      postinstall: 'preconstruct dev && manypkg check',
      build: 'tsc',
      preinstall: ' ',
      install: 'node-gyp rebuild',
    };
    await fs.writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'root', scripts }));
    assert.deepEqual(ownInstallScripts(dir), [
      { name: 'install', command: 'node-gyp rebuild' },
      { name: 'postinstall', command: 'preconstruct dev && manypkg check' },
      { name: 'prepare', command: 'husky' },
    ]);
  });

  it('finds none without a package.json, in a broken one, or through a link out of the project', async () => {
    const dir = await tempDir('sopworks-own-scripts-');
    assert.deepEqual(ownInstallScripts(dir), []);
    await fs.writeFile(path.join(dir, 'package.json'), '{ "scripts": { "postinstall": ');
    assert.deepEqual(ownInstallScripts(dir), []);
    const outside = await tempDir('sopworks-own-scripts-outside-');
    await fs.writeFile(path.join(outside, 'package.json'), JSON.stringify({ scripts: { postinstall: 'node x.js' } }));
    await fs.rm(path.join(dir, 'package.json'));
    await fs.symlink(path.join(outside, 'package.json'), path.join(dir, 'package.json'));
    assert.deepEqual(ownInstallScripts(dir), []);
  });
});
