/** Completeness: the placeholders a draft is sent back for, and what is not one. */
import assert from 'node:assert/strict';
import { placeholdersIn } from '../../src/artifacts/completeness.ts';
import { smokeCommandOf } from '../../src/sandbox/smoke-run.ts';
import { installFailures } from '../../src/sandbox/install-dependencies.ts';

const whys = (file: string, content: string) => placeholdersIn(file, content).map((p) => `${p.line}: ${p.why}`);

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
});

describe('smoke command', () => {
  const design = { runCommand: ['node', 'src/cli.js', 'FILE...'], smokeCommand: null };
  it("is the design's smoke command, else a run command without placeholders, else none", () => {
    assert.equal(smokeCommandOf(design as never), null);
    assert.deepEqual(smokeCommandOf({ ...design, smokeCommand: ['node', 'src/cli.js', 'README.md'] } as never), ['node', 'src/cli.js', 'README.md']);
    assert.deepEqual(smokeCommandOf({ runCommand: ['python3', 'app.py', '--help'], smokeCommand: null } as never), ['python3', 'app.py', '--help']);
    assert.equal(smokeCommandOf({ runCommand: ['node', 'cli.js', '<path>'], smokeCommand: null } as never), null);
  });
});

describe('install failures', () => {
  it('name the package npm or pip could not resolve', () => {
    assert.deepEqual(installFailures("npm error 404 'left-padd@^1.0.0' is not in this registry.").map((f) => f.name), ['install: left-padd@^1.0.0']);
    assert.deepEqual(installFailures('npm error notarget No matching version found for mini-slug@^9.0.0.').map((f) => f.name), ['install: mini-slug@^9.0.0']);
    assert.deepEqual(installFailures('ERROR: No matching distribution found for requestz').map((f) => f.name), ['install: requestz']);
  });
});
