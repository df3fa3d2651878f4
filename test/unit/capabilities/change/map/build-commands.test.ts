/**
 * How a repository builds what its tests import (src/capabilities/change/map/build-commands.ts): the
 * build steps it declares, in the order the map offers them, leaving out scripts that only install git
 * hooks or check the repository; the entry points its packages name that it does not hold. And the
 * policy that judges a design's buildCommand (src/capabilities/policy/): the repository's own script or
 * `make build` is allowed, a build that fetches or a script the repository lacks is refused, naming the
 * declared build steps.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { buildCommands, unbuiltEntries } from '../../../../../src/capabilities/change/map/build-commands.ts';
import { commandRefusal, loadPolicy } from '../../../../../src/capabilities/policy/index.ts';
import type { ProjectRunners } from '../../../../../src/host/runners/index.ts';
import { ROOT } from '../../../../helpers/paths.ts';

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const readerOf = (files: Record<string, string>) => async (file: string) => files[file] ?? null;
const buildsOf = async (files: Record<string, string>) =>
  (await buildCommands(Object.keys(files), readerOf(files))).map((c) => ({ argv: c.argv.join(' '), source: c.source }));
const unbuiltOf = (files: Record<string, string>) => unbuiltEntries(Object.keys(files), readerOf(files));

/** changesets' shape at the commit the real suite pins: yarn workspaces, packages whose `main` is in dist/, written by preconstruct. */
const CHANGESETS = {
  'package.json': json({
    private: true,
    workspaces: ['packages/*'],
    scripts: { test: 'jest', build: 'preconstruct build', postinstall: 'preconstruct dev && manypkg check', lint: 'yarn eslint .' },
  }),
  'yarn.lock': '# yarn lockfile v1\n',
  'packages/git/package.json': json({ name: '@changesets/git', main: 'dist/changesets-git.cjs.js', module: 'dist/changesets-git.esm.js' }),
  'packages/git/src/index.ts': 'export {};\n',
  'packages/git/src/index.test.ts': "test('x', () => {});\n",
  'packages/types/package.json': json({ name: '@changesets/types', main: 'src/index.js' }),
  'packages/types/src/index.js': 'module.exports = {};\n',
};

describe('the build steps a repository declares, and what only a build writes', () => {
  it('offers pretest, build, compile, prepare and postinstall scripts, as npm runs them, in that order', async () => {
    const files = {
      'package.json': json({
        scripts: { prepare: 'tsc -p .', build: 'tsdown', pretest: 'npm run build', test: 'vitest', compile: 'tsc', lint: 'eslint .' },
      }),
    };
    assert.deepEqual(await buildsOf(files), [
      { argv: 'npm run pretest', source: 'package.json scripts.pretest: npm run build' },
      { argv: 'npm run build', source: 'package.json scripts.build: tsdown' },
      { argv: 'npm run compile', source: 'package.json scripts.compile: tsc' },
      { argv: 'npm run prepare', source: 'package.json scripts.prepare: tsc -p .' },
    ]);
  });

  it('leaves out scripts that only install git hooks or check the repository, and keeps one that builds too', async () => {
    const files = {
      'package.json': json({ scripts: { prepare: 'husky', postinstall: 'manypkg check', pretest: 'is-ci || husky install' } }),
    };
    assert.deepEqual(await buildsOf(files), []);
    assert.deepEqual(
      (await buildsOf(CHANGESETS)).map((c) => c.argv),
      ['npm run build', 'npm run postinstall'],
    );
  });

  it("reads a Makefile's build target, with its recipe", async () => {
    const files = { Makefile: 'CC = gcc\n\nbuild: lib/\n\t$(CC) -o out main.c\n\ntest: build\n\t./out --test\n' };
    assert.deepEqual(await buildsOf(files), [{ argv: 'make build', source: 'Makefile target build: $(CC) -o out main.c' }]);
    assert.deepEqual(await buildsOf({ Makefile: 'test:\n\tpytest\n' }), []);
    assert.deepEqual(await buildsOf({}), [], 'a repository with no manifest declares no build');
  });

  it("names the workspace packages' entry points the repository does not hold, and none it holds", async () => {
    assert.deepEqual(await unbuiltOf(CHANGESETS), ['packages/git/package.json main: dist/changesets-git.cjs.js (and 1 more of its entry points)']);
    const exportsMap = {
      'package.json': json({
        main: './lib/index',
        bin: { tool: 'bin/tool.js' },
        exports: { '.': { import: './dist/index.mjs', require: './dist/index.cjs' }, './package.json': './package.json', './*': './dist/*.js' },
      }),
      'lib/index.js': '',
      'bin/tool.js': '',
    };
    // lib/index resolves to lib/index.js as Node resolves it; a pattern with * names no one file.
    assert.deepEqual(await unbuiltOf(exportsMap), ['package.json exports: ./dist/index.mjs (and 1 more of its entry points)']);
    const many = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`packages/p${i}/package.json`, json({ name: `p${i}`, main: 'dist/index.js' })]));
    const named = await unbuiltOf({ 'package.json': json({ workspaces: ['packages/*'] }), ...many });
    assert.equal(named.length, 7);
    assert.equal(named.at(-1), '… and 2 more packages');
  });

  it("lets QA run the repository's own build script or make build, and refuses a build that fetches or a script it lacks", async () => {
    const policy = await loadPolicy(path.join(ROOT, 'sops', 'change'));
    const runners: ProjectRunners = { scripts: ['build', 'test'], bins: ['tsdown', 'vitest'], installed: true };
    const declared = [{ argv: ['npm', 'run', 'build'], source: 'package.json scripts.build: tsdown' }];
    for (const allowed of [
      ['npm', 'run', 'build'],
      ['pnpm', 'build'],
      ['npx', 'tsdown'],
      ['make', 'build'],
    ])
      assert.equal(commandRefusal(policy, 'qa', allowed, { runners, declared }), null, allowed.join(' '));
    assert.match(
      commandRefusal(policy, 'qa', ['npm', 'run', 'compile'], { runners, declared }) ?? '',
      /runs the script "compile", which package\.json does not have\. Allowed by the policy: The repository's own: `npm run build` \(package\.json scripts\.build: tsdown\)/,
    );
    assert.match(
      commandRefusal(policy, 'qa', ['npx', 'tsc'], { runners, declared }) ?? '',
      /runs "tsc", which no dependency the repository installed provides/,
    );
    assert.match(commandRefusal(policy, 'qa', ['npm', 'install'], { runners, declared }) ?? '', /installs dependencies/);
    assert.match(commandRefusal(policy, 'qa', ['make', 'install'], { runners, declared }) ?? '', /qa may not run "make install"/);
  });
});
