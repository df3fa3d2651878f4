/** What makes a generated project run: placeholders found (completeness), the smoke command, install plans and failures. */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_POLICY } from '../../../../src/capabilities/policy/index.ts';
import { dependencyRegistries } from '../../../../src/capabilities/project/dependency-registries.ts';
import { placeholdersIn, smokeCommandOf } from '../../../../src/documents/index.ts';
import { installFailures, ManifestProblem, planInstall, resolveRegistries } from '../../../../src/host/install/index.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

const whys = (file: string, content: string) => placeholdersIn(file, content).map((p) => `${p.line}: ${p.why}`);
const OPTIONS = { scripts: false, frozen: false, workspaces: false };

describe('completeness', () => {
  it('finds TODOs, "not implemented" errors and Python functions that only pass', () => {
    assert.deepEqual(whys('src/a.js', "export function f() {\n  // TODO: count the words\n  throw new Error('not implemented');\n}\n"), [
      '2: a TODO left in the code',
      '3: throws "not implemented"',
    ]);
    const python = 'def parse(text):\n    """Parse it."""\n    pass\n\n\ndef load(path):\n    ...\n\n\ndef main():\n    raise NotImplementedError\n';
    assert.deepEqual(whys('tool.py', python), [
      '1: the function parse does nothing (its body is only `pass`)',
      '6: the function load does nothing (its body is only `...`)',
      '11: raises NotImplementedError',
    ]);
  });

  it('leaves finished code, documents and an abstract-looking but real body alone', () => {
    assert.deepEqual(whys('src/a.ts', 'export const todo = (items: string[]) => items.filter((i) => i.startsWith("TODO"));\n'), []);
    assert.deepEqual(whys('README.md', '# TODO\n'), []);
    assert.deepEqual(whys('tool.py', 'def f(x):\n    if x:\n        pass\n    return x\n'), []);
  });

  it("tells a placeholder comment from a comment about the code's own placeholders (trial mdpreview50)", () => {
    const stands = [
      '// placeholder',
      '# Placeholder: compute the score',
      '// placeholder implementation',
      '# placeholder until the API exists',
      '// placeholder for now',
      '// your code here',
      '# implement this',
    ];
    for (const line of stands) assert.deepEqual(whys('src/a.js', `${line}\n`), ['1: a placeholder comment'], line);
    const about = [
      '// Placeholder delimiter for protected atoms',
      '// placeholders survive escaping',
      '// replace each placeholder with its atom',
      '# placeholder text shown in the empty input',
      '// implement the spec in two passes: blocks, then inline',
    ];
    for (const line of about) assert.deepEqual(whys('src/a.js', `${line}\n`), [], line);
  });
});

describe('smoke command', () => {
  const design = { runCommand: ['node', 'src/cli.js', 'FILE...'], smokeCommand: null };
  it("is the design's smoke command, else a run command without placeholders, else none", () => {
    assert.equal(smokeCommandOf(design as never), null);
    assert.deepEqual(smokeCommandOf({ ...design, smokeCommand: ['node', 'src/cli.js', 'README.md'] } as never), ['node', 'src/cli.js', 'README.md']);
    assert.deepEqual(smokeCommandOf({ runCommand: ['python3', 'app.py', '--help'], smokeCommand: null } as never), ['python3', 'app.py', '--help']);
    assert.equal(smokeCommandOf({ runCommand: ['node', 'cli.js', '<path>'], smokeCommand: null } as never), null);
  });

  it('takes a bare word in capitals that names an input for a placeholder, in the run or the smoke command', () => {
    for (const command of [
      ['node', 'src/cli.js', 'FILE'],
      ['python', '-m', 'app', 'INPUT'],
      ['node', 'fib.js', 'N'],
      ['node', 'cli.js', '--out', 'OUTPUT_DIR'],
      ['python3', 'tool.py', 'INPUT-FILE'],
      ['node', 'cli.js', 'TEXT...'],
      ['node', 'cli.js', 'path/to/input.txt'],
      ['node', 'cli.js', 'your_file.txt'],
      ['node', 'cli.js', '${INPUT}'],
    ]) {
      assert.equal(smokeCommandOf({ runCommand: command, smokeCommand: null } as never), null, command.join(' '));
      // A smoke command with a placeholder is no smoke input either: the run command is taken, or nothing.
      assert.equal(smokeCommandOf({ runCommand: command, smokeCommand: command } as never), null, command.join(' '));
      assert.deepEqual(smokeCommandOf({ runCommand: ['node', 'cli.js', '--help'], smokeCommand: command } as never), ['node', 'cli.js', '--help']);
    }
  });

  it('runs capitalised values that are inputs, not placeholders', () => {
    for (const command of [
      ['node', 'src/cli.js', '100', 'C'],
      ['node', 'src/cli.js', 'GET', '/'],
      ['node', 'convert.js', '--to', 'CELSIUS'],
      ['python3', 'shout.py', 'HELLO', 'WORLD'],
      ['node', 'cli.js', 'README.md'],
      ['node', 'cli.js', 'data/input.txt'],
    ]) {
      assert.deepEqual(smokeCommandOf({ runCommand: null, smokeCommand: command } as never), command);
    }
  });
});

describe('install plans', () => {
  after(removeTempDirs);
  const registries = resolveRegistries(dependencyRegistries(DEFAULT_POLICY, {}), { npmRegistry: null, pipIndex: null });
  const projectWith = async (files: Record<string, string>) => {
    const dir = await tempDir();
    for (const [name, content] of Object.entries(files)) await fs.writeFile(path.join(dir, name), content);
    return dir;
  };

  it('installs nothing for a project that declares no dependencies', async () => {
    assert.equal(await planInstall(await projectWith({ 'package.json': '{ "name": "x", "type": "module" }' }), registries, OPTIONS), null);
    assert.equal(await planInstall(await projectWith({ 'requirements.txt': '# none yet\n' }), registries, OPTIONS), null);
  });

  it('reads pyproject.toml dependencies, from the default index, wheels only', async () => {
    const plan = (await planInstall(
      await projectWith({ 'pyproject.toml': '[project]\nname = "x"\ndependencies = ["requests>=2.31"]\n' }),
      registries,
      OPTIONS,
    ))!;
    assert.equal(plan.ecosystem, 'python');
    assert.deepEqual(plan.shown.slice(-3), ['--index-url', 'https://pypi.org/simple', 'requests>=2.31']);
    assert.ok(plan.shown.includes('--only-binary'), 'no source builds: they run setup code');
  });

  it('says what is wrong with a manifest it cannot read', async () => {
    await assert.rejects(
      planInstall(await projectWith({ 'package.json': '{ "dependencies": ["mini-slug"] }' }), registries, OPTIONS),
      (error: unknown) => error instanceof ManifestProblem && /^package\.json: dependencies: /.test(error.message),
    );
    await assert.rejects(
      planInstall(await projectWith({ 'pyproject.toml': '[project\n' }), registries, OPTIONS),
      (error: unknown) => error instanceof ManifestProblem && /^pyproject\.toml is not valid TOML/.test(error.message),
    );
  });

  it('takes the registry from the environment first, and refuses one that is not a URL', () => {
    assert.equal(dependencyRegistries(DEFAULT_POLICY, { SOPWORKS_NPM_REGISTRY: 'http://127.0.0.1:4873/' }).npm, 'http://127.0.0.1:4873/');
    assert.equal(
      dependencyRegistries({ ...DEFAULT_POLICY, dependencies: { ...DEFAULT_POLICY.dependencies, registries: { npm: 'https://npm.example/', pip: null } } }, {})
        .npm,
      'https://npm.example/',
    );
    assert.throws(() => dependencyRegistries(DEFAULT_POLICY, { SOPWORKS_PIP_INDEX_URL: 'pypi' }), /SOPWORKS_PIP_INDEX_URL is not an http\(s\) URL: "pypi"/);
  });
});

describe('install failures', () => {
  it('name the package npm or pip could not resolve', () => {
    assert.deepEqual(
      installFailures("npm error 404 'left-padd@^1.0.0' is not in this registry.").map((f) => f.name),
      ['install: left-padd@^1.0.0'],
    );
    assert.deepEqual(
      installFailures('npm error notarget No matching version found for mini-slug@^9.0.0.').map((f) => f.name),
      ['install: mini-slug@^9.0.0'],
    );
    assert.deepEqual(
      installFailures('ERROR: No matching distribution found for requestz').map((f) => f.name),
      ['install: requestz'],
    );
    // npm under Node's permission model (no bubblewrap): what to install, not only Node's words.
    const [weaker] = installFailures('npm error code ERR_ACCESS_DENIED\nnpm error fs.symlink API requires full fs.read and fs.write permissions.\n');
    assert.equal(weaker?.name, 'install: the sandbox');
    assert.match(weaker!.message, /install bubblewrap/);
  });

  it("a peer conflict (npm's ERESOLVE) names who needs which peer, what the project has instead, and what to do", () => {
    const output = [
      'npm error code ERESOLVE',
      'npm error ERESOLVE unable to resolve dependency tree',
      'npm error',
      'npm error While resolving: root@1.0.0',
      'npm error Found: peer-host@1.0.0',
      'npm error node_modules/peer-host',
      'npm error   peer-host@"^1.0.0" from the root project',
      'npm error',
      'npm error Could not resolve dependency:',
      'npm error peer peer-host@"^2.0.0" from host-plugin@1.0.0',
      'npm error node_modules/host-plugin',
      'npm error   host-plugin@"^1.0.0" from the root project',
      'npm error',
      'npm error Fix the upstream dependency conflict, or retry this command with --force or --legacy-peer-deps to accept an incorrect (and potentially broken) dependency resolution.',
    ].join('\n');
    const [conflict] = installFailures(output);
    assert.equal(conflict!.name, 'install: peer-host (peer of host-plugin@1.0.0)');
    assert.equal(
      conflict!.message,
      'npm could not resolve a peer dependency (ERESOLVE): host-plugin@1.0.0 needs peer-host@"^2.0.0", but peer-host@1.0.0 is what the project gets, for peer-host@"^1.0.0" from the root project. ' +
        'Make them agree in package.json — a version of host-plugin whose range takes what the project has, or peer-host within "^2.0.0" — ' +
        'or, if the repository is installed with --legacy-peer-deps, say so in its .npmrc (legacy-peer-deps=true), which sopworks honours',
    );
  });
});
