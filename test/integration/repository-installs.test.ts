/**
 * Repositories as people keep them, installed by the install step of `sopworks change` against a real
 * registry on this machine (verdaccio): fixture repositories of our own in the shapes real ones have —
 * an npm-workspaces monorepo, a pnpm monorepo with catalogs pinned by packageManager, Yarn 1 and Yarn 4
 * monorepos with configurations that point elsewhere and a Yarn or plugin of their own — each installed
 * for real in the sandbox, through the egress proxy, and checked against every manifest it declares.
 * The package managers are this repository's own devDependencies, published into the registry by the
 * test: sopworks fetches the one a repository names as it would from npmjs.org.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { checkInstall, type DependencyRegistries, describeInstallFailure, ManagerUnavailable, runInstall } from '../../src/host/install/index.ts';
import { DEFAULT_SANDBOX_SETTINGS } from '../../src/host/sandbox/index.ts';
import { type NpmRegistry, packInstalled, startNpmRegistry } from '../helpers/npm-registry.ts';
import { ROOT } from '../helpers/paths.ts';
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
  /** sopworks' cache of package managers, this suite's own; PATH without any pnpm or yarn. */
  let env: NodeJS.ProcessEnv;
  let pnpmSha512: string;
  /** Where a repository's own Yarn or plugin would leave its mark on the host, had it run. */
  let marker: string;
  const version = (pkg: string) => (JSON.parse(readFileSync(path.join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
  const PNPM = (JSON.parse(readFileSync(path.join(ROOT, 'node_modules', 'pnpm', 'package.json'), 'utf8')) as { version: string }).version;
  const registries = (): DependencyRegistries => ({ npm: npm.url, pipIndex: null, pipFindLinks: null });

  /** The install step of a change run: workspaces linked, the base's scripts as the policy says. */
  async function install(projectDir: string, scripts = false) {
    const check = await checkInstall({ projectDir, registries: registries(), scripts, workspaces: true, env });
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
        env,
      },
    );
    return { check, ...run };
  }

  before(async function () {
    requireSystem(this, BUBBLEWRAP);
    npm = await startNpmRegistry();
    env = { ...process.env, SOPWORKS_PACKAGE_MANAGERS: await tempDir('sopworks-managers-') };
    const packs = await tempDir();
    const pnpmTarball = await packInstalled(path.join(ROOT, 'node_modules', 'pnpm'), packs);
    pnpmSha512 = createHash('sha512')
      .update(await fs.readFile(pnpmTarball))
      .digest('hex');
    await npm.publish(pnpmTarball);
    for (const pkg of ['yarn', '@yarnpkg/cli-dist']) await npm.publish(await packInstalled(path.join(ROOT, 'node_modules', pkg), packs));
    marker = path.join(await tempDir('sopworks-yarn-plant-'), 'PWNED');
    for (const [name, version] of [
      ['mini-slug', '1.0.2'],
      ['tiny-dep', '1.0.0'],
      ['tiny-dep', '2.0.0'],
    ])
      await npm.publishFiles({
        'package.json': JSON.stringify({ name, version, main: 'index.js' }),
        'index.js': `module.exports = ${JSON.stringify(version)};\n`,
      });
    for (const v of ['1.0.0', '2.0.0']) await npm.publishFiles({ 'package.json': JSON.stringify({ name: 'peer-host', version: v }), 'index.js': '' });
    await npm.publishFiles({
      'package.json': JSON.stringify({ name: 'host-plugin', version: '1.0.0', peerDependencies: { 'peer-host': '^2.0.0' } }),
      'index.js': '',
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

  const PNPM_MONOREPO = {
    'package.json': { name: 'fx-root', private: true, devDependencies: { 'mini-slug': '^1.0.0' } },
    'pnpm-workspace.yaml': 'packages:\n  - packages/*\ncatalog:\n  tiny-dep: ^2.0.0\nonlyBuiltDependencies:\n  - esbuild\n',
    'packages/core/package.json': { name: '@fx/core', version: '1.0.0', dependencies: { 'tiny-dep': 'catalog:' } },
    'packages/cli/package.json': { name: '@fx/cli', version: '1.0.0', dependencies: { '@fx/core': 'workspace:^' } },
  };

  it('a pnpm monorepo (packageManager with its hash, catalogs, workspace: links) installs with the pnpm it names, fetched once through the egress proxy and kept', async () => {
    const manifest = { ...PNPM_MONOREPO['package.json'], packageManager: `pnpm@${PNPM}+sha512.${pnpmSha512}` };
    const dir = await repository({ ...PNPM_MONOREPO, 'package.json': manifest });
    const { check, outcome, unmet, installer } = await install(dir);
    assert.equal(check.plan!.manager!.manager, 'pnpm');
    assert.match(check.plan!.shown.join(' '), /^pnpm install --no-frozen-lockfile --ignore-scripts --ignore-pnpmfile --registry=/);
    assert.match(check.notes.join('\n'), /^pnpm-workspace\.yaml:5: onlyBuiltDependencies: \["esbuild"\] — honoured$/m);
    assert.equal(outcome.exitCode, 0, outcome.output);
    assert.deepEqual(unmet, []);
    assert.equal(installer, `pnpm ${PNPM}, fetched by sopworks from ${npm.url}, its sha512 as packageManager says`);
    assert.equal(await fs.realpath(path.join(dir, 'packages', 'cli', 'node_modules', '@fx', 'core')), await fs.realpath(path.join(dir, 'packages', 'core')));
    const tiny = JSON.parse(await fs.readFile(path.join(dir, 'packages', 'core', 'node_modules', 'tiny-dep', 'package.json'), 'utf8'));
    assert.equal(tiny.version, '2.0.0', "the catalog's range");
    assert.match(await fs.readFile(path.join(dir, 'pnpm-lock.yaml'), 'utf8'), /^lockfileVersion: '9\.0'/);

    // The next repository gets the same pnpm from sopworks' cache: nothing fetched for it.
    const again = await repository({ ...PNPM_MONOREPO, 'package.json': { ...manifest, packageManager: `pnpm@${PNPM}` } });
    const second = await install(again);
    assert.equal(second.outcome.exitCode, 0, second.outcome.output);
    assert.equal(second.installer, `pnpm ${PNPM}, from sopworks' cache of package managers`);
  });

  it('a pnpm the registry does not have, or whose tarball is not the hash packageManager names: the install cannot run, and says what to do', async () => {
    const missing = await repository({ ...PNPM_MONOREPO, 'package.json': { ...PNPM_MONOREPO['package.json'], packageManager: 'pnpm@9.99.0' } });
    await assert.rejects(install(missing), (error: Error) => {
      assert.ok(error instanceof ManagerUnavailable);
      assert.match(
        error.message,
        /^This repository installs with pnpm \(package\.json packageManager: pnpm@9\.99\.0\)\. No pnpm 9\.99\.0 is on this machine's PATH, and sopworks could not fetch pnpm@9\.99\.0 from /,
      );
      assert.match(error.message, /No matching version found for pnpm@9\.99\.0/);
      assert.match(error.hint!, /npm install -g pnpm@9\.99\.0/);
      return true;
    });
    const forged = await repository({
      ...PNPM_MONOREPO,
      'package.json': { ...PNPM_MONOREPO['package.json'], packageManager: `pnpm@${PNPM}+sha512.${'0'.repeat(128)}` },
    });
    await fs.rm(env.SOPWORKS_PACKAGE_MANAGERS!, { recursive: true, force: true });
    await assert.rejects(install(forged), /is not the one package\.json's packageManager names: its sha512 is [0-9a-f]{128}, the field says 0{128}/);
  });

  /** A program of the repository's that marks the host and the project when it runs. */
  const plant = (tag: string) =>
    `for (const p of [${JSON.stringify('MARKER')}, 'PWNED-${tag}']) { try { require('fs').writeFileSync(p, 'pwned') } catch {} }\nmodule.exports = { name: 'plant', factory: () => ({}) };\n`;
  const planted = (tag: string) => plant(tag).replace('MARKER', `${marker}-${tag}`);
  const YARN_MONOREPO = {
    'packages/core/package.json': { name: '@fx/core', version: '1.0.0', dependencies: { 'tiny-dep': '^2.0.0' } },
    'packages/cli/package.json': { name: '@fx/cli', version: '1.0.0', dependencies: { '@fx/core': '1.0.0' } },
  };

  async function assertNoPlantRan(dir: string): Promise<void> {
    const left = (await fs.readdir(dir, { recursive: true })).filter((name) => /PWNED/.test(String(name)));
    assert.deepEqual(left, [], "nothing of the repository's own ran as the installer");
    await assert.rejects(fs.access(`${marker}-yarn-path`));
    await assert.rejects(fs.access(`${marker}-yarnPath`));
    await assert.rejects(fs.access(`${marker}-plugin`));
  }

  it("a Yarn 1 monorepo installs with Yarn 1, its lockfile's registry.yarnpkg.com URLs served by the configured registry; its .yarnrc's registry and yarn-path are overridden", async () => {
    const meta = (await (await fetch(`${npm.url}mini-slug`)).json()) as { versions: Record<string, { dist: { shasum: string; integrity: string } }> };
    const dist = meta.versions['1.0.2']!.dist;
    const lock = [
      '# THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.',
      '# yarn lockfile v1',
      '',
      '',
      'mini-slug@^1.0.0:',
      '  version "1.0.2"',
      `  resolved "https://registry.yarnpkg.com/mini-slug/-/mini-slug-1.0.2.tgz#${dist.shasum}"`,
      `  integrity ${dist.integrity}`,
      '',
    ].join('\n');
    const dir = await repository({
      ...YARN_MONOREPO,
      'package.json': { name: 'fx-root', private: true, workspaces: ['packages/*'], devDependencies: { 'mini-slug': '^1.0.0' } },
      'yarn.lock': lock,
      '.yarnrc': 'registry "http://127.0.0.1:9/"\nyarn-path "./tools/yarn.js"\n--install.ignore-engines true\n',
      'tools/yarn.js': planted('yarn-path'),
    });
    const { check, outcome, unmet, installer, egress } = await install(dir);
    assert.equal(check.plan!.manager!.manager, 'yarn-classic');
    assert.deepEqual(check.refusals, []);
    const notes = check.notes.join('\n');
    assert.match(notes, /^\.yarnrc:1: registry http:\/\/127\.0\.0\.1:9\/ — overridden: packages come only from the configured registry/m);
    assert.match(notes, /^\.yarnrc:2: yarn-path \.\/tools\/yarn\.js — overridden: code of the repository/m);
    assert.match(notes, /^\.yarnrc:3: --install\.ignore-engines true — honoured$/m);
    assert.equal(outcome.exitCode, 0, outcome.output);
    assert.deepEqual(unmet, []);
    assert.equal(installer, `Yarn 1 ${version('yarn')}, fetched by sopworks from ${npm.url}`);
    assert.ok(
      egress.some(
        (e) =>
          e.allowed &&
          e.request.includes('https://registry.yarnpkg.com/mini-slug/-/mini-slug-1.0.2.tgz') &&
          e.result.includes(`from ${npm.url}mini-slug/-/mini-slug-1.0.2.tgz`),
      ),
      egress.map((e) => `${e.request} ${e.result}`).join('\n'),
    );
    assert.ok(
      egress.every((e) => e.allowed),
      'nothing refused',
    );
    assert.equal(await fs.realpath(path.join(dir, 'node_modules', '@fx', 'core')), await fs.realpath(path.join(dir, 'packages', 'core')));
    await assertNoPlantRan(dir);
  });

  it("a Yarn 4 monorepo installs with the Yarn its packageManager names, reading sopworks' configuration instead of its .yarnrc.yml: its yarnPath and plugin never run, its registry is overridden, its packageExtensions honoured", async () => {
    const dir = await repository({
      ...YARN_MONOREPO,
      'packages/cli/package.json': { name: '@fx/cli', version: '1.0.0', dependencies: { '@fx/core': 'workspace:^' } },
      'package.json': {
        name: 'fx-root',
        private: true,
        packageManager: `yarn@${version('@yarnpkg/cli-dist')}`,
        workspaces: ['packages/*'],
        devDependencies: { 'mini-slug': '^1.0.0' },
      },
      '.yarnrc.yml': [
        'yarnPath: .yarn/releases/yarn-9.9.9.cjs',
        'plugins:',
        '  - path: .yarn/plugins/plant.cjs',
        'npmRegistryServer: "http://127.0.0.1:9"',
        'nodeLinker: pnp',
        'enableTelemetry: true',
        'packageExtensions:',
        '  "mini-slug@*":',
        '    dependencies:',
        '      tiny-dep: "^2.0.0"',
        // This registry's packages were published a moment ago: Yarn would quarantine them.
        'npmMinimalAgeGate: 0',
        '',
      ].join('\n'),
      '.yarn/releases/yarn-9.9.9.cjs': planted('yarnPath'),
      '.yarn/plugins/plant.cjs': planted('plugin'),
    });
    const { check, outcome, unmet, installer } = await install(dir);
    assert.equal(check.plan!.manager!.manager, 'yarn-berry');
    const notes = check.notes.join('\n');
    for (const [line, key] of [
      [1, 'yarnPath'],
      [2, 'plugins'],
      [4, 'npmRegistryServer'],
      [5, 'nodeLinker'],
      [6, 'enableTelemetry'],
    ] as const)
      assert.match(notes, new RegExp(`^\\.yarnrc\\.yml:${line}: ${key}: .* — overridden: `, 'm'));
    assert.match(notes, /^\.yarnrc\.yml:7: packageExtensions: .* — honoured$/m);
    assert.match(notes, /^\.yarnrc\.yml:11: npmMinimalAgeGate: 0 — honoured$/m);
    assert.equal(outcome.exitCode, 0, outcome.output);
    assert.deepEqual(unmet, []);
    assert.equal(installer, `Yarn (2 or later) ${version('@yarnpkg/cli-dist')}, fetched by sopworks from ${npm.url}`);
    await fs.access(path.join(dir, 'node_modules', 'mini-slug', 'package.json'));
    await fs.access(path.join(dir, 'node_modules', 'tiny-dep', 'package.json'));
    assert.match(await fs.readFile(path.join(dir, 'yarn.lock'), 'utf8'), /^"@fx\/core@workspace:\^, @fx\/core@workspace:packages\/core":/m);
    await assertNoPlantRan(dir);
  });

  it("a peer conflict says who needs which peer and what to do; the repository's own legacy-peer-deps=true is honoured", async () => {
    const manifest = { name: 'peers', version: '1.0.0', dependencies: { 'peer-host': '^1.0.0', 'host-plugin': '^1.0.0' } };
    const dir = await repository({ 'package.json': manifest });
    const { outcome } = await install(dir);
    assert.notEqual(outcome.exitCode, 0);
    const [first] = describeInstallFailure(outcome.output, outcome.exitCode, outcome.timedOut);
    assert.equal(first!.name, 'install: peer-host (peer of host-plugin@1.0.0)');
    assert.match(
      first!.message,
      /^npm could not resolve a peer dependency \(ERESOLVE\): host-plugin@1\.0\.0 needs peer-host@"\^2\.0\.0", but peer-host@1\.0\.0 is what the project gets/,
    );
    const legacy = await repository({ 'package.json': manifest, '.npmrc': 'legacy-peer-deps=true\n' });
    const again = await install(legacy);
    assert.match(again.check.notes.join('\n'), /^\.npmrc:1: legacy-peer-deps=true — honoured$/m);
    assert.equal(again.outcome.exitCode, 0, again.outcome.output);
    assert.deepEqual(again.unmet, []);
  });
});
