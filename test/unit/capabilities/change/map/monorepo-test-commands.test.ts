/**
 * A monorepo's packages and their tests (src/capabilities/change/map/declared/workspace-declared.ts,
 * src/host/runners/): the map lists each tested package's command in the form its repository's package
 * manager gives — a package's own `test` script, or the root's jest or vitest on its folder — the policy
 * lets QA run those forms when the package has the script, and the sandbox runs a package's script in
 * its folder with npm. Fixtures in the shapes of real monorepos: changesets (yarn workspaces, the root's
 * jest, packages without scripts), a pnpm workspace with vitest per package, npm workspaces.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { testCommands } from '../../../../../src/capabilities/change/map/test-commands.ts';
import { commandRefusal, loadPolicy } from '../../../../../src/capabilities/policy/index.ts';
import { localCommand, readProjectRunners, runnerForm } from '../../../../../src/host/runners/index.ts';
import { ROOT } from '../../../../helpers/paths.ts';
import { removeTempDirs, tempDir } from '../../../../helpers/temp-dir.ts';

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const words = (line: string) => line.split(' ');
const commandsOf = async (files: Record<string, string>) =>
  (await testCommands(Object.keys(files), async (file) => files[file] ?? null)).map((c) => ({ argv: c.argv.join(' '), source: c.source }));

/** changesets' shape: yarn workspaces, `jest` at the root, the packages with tests but no test script of their own. */
const YARN_JEST = {
  'package.json': json({ private: true, workspaces: ['packages/*', 'scripts/*'], scripts: { test: 'jest', lint: 'yarn eslint .' } }),
  'yarn.lock': '# yarn lockfile v1\n',
  'jest.config.js': 'module.exports = {};\n',
  'packages/git/package.json': json({ name: '@changesets/git', main: 'src/index.ts' }),
  'packages/git/src/index.ts': 'export {};\n',
  'packages/git/src/index.test.ts': "test('x', () => {});\n",
  'packages/cli/package.json': json({ name: '@changesets/cli' }),
  'packages/cli/src/run.test.ts': "test('x', () => {});\n",
  'packages/types/package.json': json({ name: '@changesets/types' }),
  'packages/types/src/index.ts': 'export {};\n',
  'docs/package.json': json({ name: 'not-a-workspace' }),
  'docs/a.test.ts': '',
};

/** A pnpm workspace whose packages test themselves with vitest. */
const PNPM_VITEST = {
  'package.json': json({ private: true, scripts: { test: 'pnpm -r test' }, packageManager: 'pnpm@9.15.0' }),
  'pnpm-workspace.yaml': "packages:\n  - 'packages/*'\n  - '!packages/private-*'\n",
  'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
  'packages/core/package.json': json({ name: '@acme/core', scripts: { test: 'vitest run' } }),
  'packages/core/test/core.test.ts': '',
  'packages/private-x/package.json': json({ name: 'private-x', scripts: { test: 'vitest run' } }),
  'packages/private-x/test/x.test.ts': '',
};

describe("a monorepo's packages and their tests", () => {
  after(removeTempDirs);

  it("lists each tested package with the root's jest on its folder, in the repository's own words", async () => {
    const commands = await commandsOf(YARN_JEST);
    assert.deepEqual(
      commands.map((c) => c.argv),
      ['npm test', 'npx jest packages/cli', 'npx jest packages/git'],
    );
    assert.equal(commands[2]!.source, "the package packages/git (@changesets/git), 1 test file: the root's jest on its folder");
  });

  it("runs a package's own test script in the form its package manager gives, leaving out what the patterns leave out", async () => {
    assert.deepEqual(
      (await commandsOf(PNPM_VITEST)).map((c) => c.argv),
      ['npm test', 'pnpm --filter @acme/core test'],
    );
    const yarn = { ...YARN_JEST, 'packages/git/package.json': json({ name: '@changesets/git', scripts: { test: 'jest --runInBand' } }) };
    assert.ok((await commandsOf(yarn)).some((c) => c.argv === 'yarn workspace @changesets/git test'));
    const npm = {
      'package.json': json({ workspaces: ['lib/*'], scripts: { test: 'node --test' } }),
      'lib/a/package.json': json({ name: 'a', scripts: { test: 'node --test' } }),
      'lib/a/test.js': '',
    };
    assert.deepEqual(
      (await commandsOf(npm)).map((c) => c.argv),
      ['npm test', 'npm test -w lib/a'],
    );
    // vitest at the root is told to run once, on the package's folder.
    const rootVitest = { ...PNPM_VITEST, 'package.json': json({ scripts: { test: 'vitest' } }), 'packages/core/package.json': json({ name: '@acme/core' }) };
    assert.ok((await commandsOf(rootVitest)).some((c) => c.argv === 'npx vitest run packages/core'));
  });

  it('reads the package a workspace form runs a script in, and only one package', () => {
    const cases: [string, unknown][] = [
      ['npm test -w packages/a', { kind: 'script', script: 'test', args: [], workspace: 'packages/a' }],
      ['npm run test --workspace=packages/a', { kind: 'script', script: 'test', args: [], workspace: 'packages/a' }],
      ['npm run test --prefix ./packages/a/', { kind: 'script', script: 'test', args: [], workspace: 'packages/a' }],
      ['pnpm --filter @x/a test', { kind: 'script', script: 'test', args: [], workspace: '@x/a' }],
      ['pnpm -C packages/a run test:unit', { kind: 'script', script: 'test:unit', args: [], workspace: 'packages/a' }],
      ['yarn workspace @x/a test', { kind: 'script', script: 'test', args: [], workspace: '@x/a' }],
      ['pnpm --filter @x/* test', null],
      ['pnpm --filter a --filter b test', null],
      ['yarn workspace @x/a add left-pad', null],
      ['pnpm --filter @x/a vitest', null],
    ];
    for (const [line, form] of cases) assert.deepEqual(runnerForm(words(line)), form, line);
  });

  it("runs a package's script with npm in its folder, lets QA run it, and refuses another package or script, naming them", async function () {
    this.timeout(60_000);
    const root = await tempDir('sopworks-monorepo-');
    const files: Record<string, string> = {
      'package.json': json({ private: true, workspaces: ['packages/*'], scripts: { test: 'node --test' } }),
      'packages/a/package.json': json({ name: '@x/a', scripts: { test: 'node --test' } }),
      'packages/a/test/a.test.js': "require('node:test')('a works', () => {});\n",
      'packages/b/package.json': json({ name: '@x/b', scripts: {} }),
      'packages/b/test/b.test.js': "require('node:test')('b fails', () => { throw new Error('b'); });\n",
    };
    for (const [file, content] of Object.entries(files)) {
      await fs.mkdir(path.dirname(path.join(root, file)), { recursive: true });
      await fs.writeFile(path.join(root, file), content);
    }
    const runners = await readProjectRunners(root);
    assert.deepEqual(runners.workspaces, [
      { folder: 'packages/a', name: '@x/a', scripts: ['test'] },
      { folder: 'packages/b', name: '@x/b', scripts: [] },
    ]);
    const local = localCommand(words('pnpm --filter @x/a test'), runners);
    assert.deepEqual(local, { argv: ['npm', 'run', 'test', '--prefix', 'packages/a'], note: 'run as npm run test --prefix packages/a' });
    // The package's tests alone: b's failing test is not run.
    const output = execFileSync('argv' in local ? local.argv[0]! : '', 'argv' in local ? local.argv.slice(1) : [], { cwd: root, encoding: 'utf8' });
    assert.match(output, /# pass 1\n# fail 0/);

    const policy = await loadPolicy(path.join(ROOT, 'sops', 'change'));
    for (const line of ['pnpm --filter @x/a test', 'npm test -w packages/a', 'yarn workspace @x/a test']) {
      assert.equal(commandRefusal(policy, 'qa', words(line), { runners }), null, line);
    }
    assert.match(
      commandRefusal(policy, 'qa', words('yarn workspace @x/b test'), { runners })!,
      /runs the script "test", which packages\/b\/package\.json does not have/,
    );
    assert.match(
      commandRefusal(policy, 'qa', words('pnpm --filter @x/c test'), { runners })!,
      /a script of "@x\/c", which is not a package of this repository/,
    );
    const unknown = localCommand(words('yarn workspace @x/c test'), runners);
    assert.match('refused' in unknown ? unknown.refused : '', /"@x\/c" is not a package of this repository \(its packages: @x\/a, @x\/b\)/);
  });
});
