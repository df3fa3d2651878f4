/**
 * Repositories as people keep them, installed by the install step of `sopworks change` against a real
 * registry on this machine (verdaccio): fixture repositories of our own in the shapes real ones have —
 * an npm-workspaces monorepo — each installed for real in the sandbox, through the egress proxy, and
 * checked against every manifest it declares.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { checkInstall, runInstall } from '../../src/host/install/install-project.ts';
import type { DependencyRegistries } from '../../src/host/install/registries.ts';
import { DEFAULT_SANDBOX_SETTINGS } from '../../src/host/sandbox/sandbox-settings.ts';
import { type NpmRegistry, startNpmRegistry } from '../helpers/npm-registry.ts';
import { BUBBLEWRAP, requireSystem } from '../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

async function repository(files: Record<string, unknown>): Promise<string> {
  const dir = await tempDir();
  for (const [name, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await fs.writeFile(path.join(dir, name), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
  return dir;
}

describe("a repository's own install: its layout and its package manager", function () {
  this.timeout(300_000);
  let npm: NpmRegistry;
  const registries = (): DependencyRegistries => ({ npm: npm.url, pipIndex: null, pipFindLinks: null });

  /** The install step of a change run: workspaces linked, the base's scripts as the policy says. */
  async function install(projectDir: string, scripts = false) {
    const check = await checkInstall({ projectDir, registries: registries(), scripts, workspaces: true });
    assert.deepEqual(check.refusals, []);
    const run = await runInstall(
      { ...check, plan: check.plan! },
      {
        projectDir,
        registries: registries(),
        scripts,
        workspaces: true,
        network: true,
        sandbox: { ...DEFAULT_SANDBOX_SETTINGS, mode: 'bubblewrap' },
        wallSeconds: 240,
      },
    );
    return { check, ...run };
  }

  before(async function () {
    requireSystem(this, BUBBLEWRAP);
    npm = await startNpmRegistry();
    for (const [name, version] of [
      ['mini-slug', '1.0.2'],
      ['tiny-dep', '1.0.0'],
      ['tiny-dep', '2.0.0'],
    ])
      await npm.publishFiles({
        'package.json': JSON.stringify({ name, version, main: 'index.js' }),
        'index.js': `module.exports = ${JSON.stringify(version)};\n`,
      });
    // A postinstall that puts a workspace's dependency out of its range after npm resolved it.
    await npm.publishFiles({
      'package.json': JSON.stringify({ name: 'downgrade-pkg', version: '1.0.0', scripts: { postinstall: 'node downgrade.js' } }),
      'downgrade.js':
        "const fs = require('fs'); const file = '../tiny-dep/package.json'; const m = JSON.parse(fs.readFileSync(file)); m.version = '1.0.0'; fs.writeFileSync(file, JSON.stringify(m));\n",
    });
  });

  after(async () => {
    await npm?.stop();
    await removeTempDirs();
  });

  const WORKSPACES = {
    'package.json': { name: 'fx-root', private: true, workspaces: ['packages/*'], devDependencies: { 'mini-slug': '^1.0.0' } },
    'packages/core/package.json': { name: '@fx/core', version: '1.0.0', main: 'index.js', dependencies: { 'tiny-dep': '^2.0.0' } },
    'packages/core/index.js': "module.exports = () => require('tiny-dep');\n",
    'packages/cli/package.json': { name: '@fx/cli', version: '1.0.0', dependencies: { '@fx/core': '^1.0.0' } },
  };

  it('an npm-workspaces monorepo installs: every workspace linked, each one’s dependencies checked against its own manifest', async () => {
    const dir = await repository(WORKSPACES);
    const { check, outcome, unmet } = await install(dir);
    assert.deepEqual(
      check.plan!.workspaces.map((w) => `${w.folder} ${w.name}`),
      ['packages/cli @fx/cli', 'packages/core @fx/core'],
    );
    assert.equal(outcome.exitCode, 0, outcome.output);
    assert.deepEqual(unmet, []);
    assert.equal(await fs.readlink(path.join(dir, 'node_modules', '@fx', 'core')), '../../packages/core', 'the workspace is linked, not fetched');
    const tiny = JSON.parse(await fs.readFile(path.join(dir, 'node_modules', 'tiny-dep', 'package.json'), 'utf8'));
    assert.equal(tiny.version, '2.0.0', "a workspace's own dependency is installed");
  });

  it("a workspace's dependency out of its range after the install fails it, naming the workspace and its manifest", async () => {
    const dir = await repository({
      ...WORKSPACES,
      'packages/cli/package.json': { name: '@fx/cli', version: '1.0.0', dependencies: { '@fx/core': '^1.0.0', 'downgrade-pkg': '1.0.0' } },
    });
    const { outcome, unmet } = await install(dir, true);
    assert.equal(outcome.exitCode, 0, outcome.output);
    assert.deepEqual(
      unmet.map((u) => `${u.name}: ${u.why}`),
      ['@fx/core > tiny-dep: tiny-dep@^2.0.0 (packages/core/package.json) is installed at 1.0.0, which does not satisfy it'],
    );
  });
});
