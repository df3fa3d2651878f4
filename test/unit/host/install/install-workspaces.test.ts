/**
 * A repository's workspaces at install: which folders its patterns name (globs, negations, never
 * through a link), and what the checks before the install let through once the workspaces may be
 * linked — a dependency on a workspace, a lockfile's links to them — while a new project's manifest
 * declaring workspaces is still refused.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { checkInstall } from '../../../../src/host/install/install-project.ts';
import { lockfileRefusals, packageJsonRefusals, specProblem } from '../../../../src/host/install/npm-sources.ts';
import { declaredWorkspaces, findWorkspaces } from '../../../../src/host/install/workspaces.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

const REGISTRY = 'http://127.0.0.1:4873/';
const registries = { npm: REGISTRY, pipIndex: null, pipFindLinks: null };

async function project(files: Record<string, string>): Promise<string> {
  const dir = await tempDir();
  for (const [name, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await fs.writeFile(path.join(dir, name), content);
  }
  return dir;
}

const pkg = (name: string, dependencies: Record<string, string> = {}) => JSON.stringify({ name, version: '1.0.0', dependencies }, null, 2);

describe('install: a repository with workspaces', () => {
  after(removeTempDirs);

  it('reads the patterns as npm and yarn write them: a list, or { packages }', () => {
    assert.deepEqual(declaredWorkspaces({ workspaces: ['packages/*'] }), ['packages/*']);
    assert.deepEqual(declaredWorkspaces({ workspaces: { packages: ['apps/*', 'libs/*'], nohoist: ['**/x'] } }), ['apps/*', 'libs/*']);
    assert.equal(declaredWorkspaces({ name: 'one' }), null);
  });

  it('finds the folders the patterns name that hold a package.json, leaves out negations, and never follows a link', async () => {
    const dir = await project({
      'packages/a/package.json': pkg('@fx/a'),
      'packages/b/package.json': pkg('@fx/b'),
      'packages/skip/package.json': pkg('@fx/skip'),
      'packages/notes/README.md': 'no manifest here\n',
      'tools/cli/package.json': pkg('fx-cli'),
      'packages/a/node_modules/x/package.json': pkg('x'),
    });
    const outside = await project({ 'package.json': pkg('outside') });
    await fs.symlink(outside, path.join(dir, 'packages', 'linked'));
    assert.deepEqual(findWorkspaces(dir, ['packages/*', '!packages/skip', './tools/*/']), [
      { folder: 'packages/a', name: '@fx/a' },
      { folder: 'packages/b', name: '@fx/b' },
      { folder: 'tools/cli', name: 'fx-cli' },
    ]);
  });

  it('lets a dependency name a workspace (workspace:, a version, file: to its folder) and nothing else local', () => {
    const links = { byName: new Map([['@fx/a', 'packages/a']]), from: 'packages/b' };
    for (const spec of ['workspace:*', 'workspace:^', '^1.0.0', 'file:../a', 'link:../a']) assert.equal(specProblem('@fx/a', spec, links), null, spec);
    assert.match(specProblem('@fx/a', 'file:../../elsewhere', links)!, /not the workspace @fx\/a \(packages\/a\)/);
    assert.match(specProblem('@fx/zzz', 'workspace:*', links)!, /no workspace called @fx\/zzz/);
    assert.match(specProblem('left-pad', 'file:../a', links)!, /local folder/);
    const text = JSON.stringify({ name: 'root', workspaces: ['packages/*'] }, null, 2);
    assert.deepEqual(packageJsonRefusals(text, JSON.parse(text), 'package.json', { byName: links.byName, from: '' }), []);
  });

  it("a lockfile's workspace entries and links to them pass; a link anywhere else is still refused", () => {
    const lock = {
      lockfileVersion: 3,
      packages: {
        '': { name: 'root', workspaces: ['packages/*'] },
        'node_modules/@fx/a': { resolved: 'packages/a', link: true },
        'node_modules/evil': { resolved: '../outside', link: true },
        'packages/a': { name: '@fx/a', version: '1.0.0' },
        'packages/a/node_modules/tiny': { version: '1.0.0', resolved: `${REGISTRY}tiny/-/tiny-1.0.0.tgz` },
        vendor: { name: 'vendor', version: '1.0.0' },
      },
    };
    const refusals = lockfileRefusals(JSON.stringify(lock, null, 2), 'package-lock.json', REGISTRY, ['packages/a']);
    assert.deepEqual(
      refusals.map((r) => r.found.split(':')[0]),
      ['node_modules/evil', 'vendor'],
    );
  });

  it('a change run installs an npm-workspaces repository (workspaces: true); a new project declaring workspaces is refused', async () => {
    const dir = await project({
      'package.json': JSON.stringify({ name: 'root', private: true, workspaces: ['packages/*'], devDependencies: { 'mini-slug': '^1.0.0' } }, null, 2),
      'packages/a/package.json': pkg('@fx/a', { 'tiny-dep': '^2.0.0' }),
      'packages/b/package.json': pkg('@fx/b', { '@fx/a': '^1.0.0', 'left-pad': 'file:../../../outside' }),
    });
    const change = await checkInstall({ projectDir: dir, registries, scripts: false, workspaces: true });
    assert.deepEqual(
      change.plan!.workspaces.map((w) => w.folder),
      ['packages/a', 'packages/b'],
    );
    assert.deepEqual(
      change.refusals.map((r) => `${r.file}:${r.line} ${r.found}`),
      ['packages/b/package.json:6 dependencies.left-pad: "file:../../../outside"'],
      "a workspace's manifest is checked like the root's",
    );
    const created = await checkInstall({ projectDir: dir, registries, scripts: false, workspaces: false });
    assert.deepEqual(created.plan!.workspaces, []);
    assert.match(
      created.refusals.map((r) => `${r.found} — ${r.fix}`).join('\n'),
      /^workspaces: \["packages\/\*"\] — remove "workspaces": a new project is one package/m,
    );
  });
});
