/**
 * The repository map: every path in the tree however many, the signatures of the files a request is
 * about within the token budget (never a body), a cache by blob that a second map reuses, and the files
 * a role asks for read with refusals that say why.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { countTokens } from 'gpt-tokenizer';
import { listFiles } from '../../../../src/capabilities/change/map/list-files.ts';
import { parseFiles, parseInWorkers } from '../../../../src/capabilities/change/map/parse-pool.ts';
import { parseWorkerEntry } from '../../../../src/capabilities/change/map/parse-worker-entry.ts';
import { readTree, renderTree } from '../../../../src/capabilities/change/map/render-tree.ts';
import { tagFiles } from '../../../../src/capabilities/change/map/tag-files.ts';
import { readRequestedFiles, shares } from '../../../../src/capabilities/change/read-files.ts';
import { MAP_BOUNDS, mapRepository } from '../../../../src/capabilities/change/repository-map.ts';
import { languageOf } from '../../../../src/ground/syntax/index.ts';
import { committedRepository, gitIn } from '../../../helpers/committed-repository.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

const repository = (files: Record<string, string>) => committedRepository(files);

/** `count` modules in ten folders, each defining one function that the next one calls. */
function synthetic(count: number): Record<string, string> {
  const files: Record<string, string> = { 'package.json': '{ "name": "synthetic", "scripts": { "test": "node --test" } }\n', 'README.md': '# synthetic\n' };
  for (let i = 0; i < count; i++) {
    const uses = i > 0 ? `import { step${i - 1} } from '../area${(i - 1) % 10}/mod${i - 1}.js';\n` : '';
    files[`src/area${i % 10}/mod${i}.js`] = `${uses}export function step${i}(a, b) {\n  return a + b + ${i}; // BODY_${i}\n}\n`;
  }
  files['assets/blob.bin'] = '\0\x01\x02';
  return files;
}

/** A file of each language the map reads (ESM, CommonJS, TypeScript, Python, Go, Rust, Java), and their tests. */
const POLYGLOT: Record<string, string> = {
  'lib/esm.mjs': "export function parseArgs(argv) {\n  return argv;\n}\nexport const VERSION = '1.0';\n",
  'lib/cjs.js':
    "'use strict';\nfunction helper(a) {\n  function local() {}\n  return a;\n}\nexports.VERSION = '2.0';\nmodule.exports.parse = function parse(text,\n    options) {\n  return helper(text); // parse( in a comment\n};\nmodule.exports = { helper };\n",
  'lib/types.ts':
    "export interface Options { lang: string }\nexport type Lang = 'en' | 'fr';\nexport class Greeter {\n  greet(name: string): string {\n    return name;\n  }\n}\n",
  'pkg/core.py': 'class Counter:\n    def count(self, text):\n        def local():\n            pass\n        return len(text)\n',
  'homedir/homedir.go': 'package homedir\n\nfunc Dir() (string, error) {\n\treturn "", nil\n}\n\ntype Cache struct {\n\tdir string\n}\n',
  'homedir/homedir_test.go': 'package homedir\n\nimport "testing"\n\nfunc TestDir(t *testing.T) {}\n',
  'crate/src/lib.rs': 'pub fn parse(s: &str) -> usize {\n    s.len()\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn parses() {}\n}\n',
  'java/src/main/java/com/x/Greeter.java': 'package com.x;\n\npublic class Greeter {\n  public String greet(String who) {\n    return who;\n  }\n}\n',
  'java/src/test/java/com/x/GreeterTest.java': 'package com.x;\n\nclass GreeterTest {}\n',
};

const map = (root: string, base: string, request: string, tokens?: number) =>
  mapRepository({ root, base, branch: 'sopworks/x', slug: 'x', request, ...(tokens ? { tokens } : {}) });

describe('repository map', function () {
  this.timeout(120_000);
  const cache = process.env.SOPWORKS_CACHE_DIR;
  before(async () => {
    process.env.SOPWORKS_CACHE_DIR = await tempDir('sopworks-map-cache-');
  });
  after(async () => {
    if (cache === undefined) delete process.env.SOPWORKS_CACHE_DIR;
    else process.env.SOPWORKS_CACHE_DIR = cache;
    await removeTempDirs();
  });

  it('shows every path of a 3,000-file tree, one line per folder, numbered runs written once', () => {
    const paths = Object.keys(synthetic(3000)).concat(['src/area1/mod1.test.js', 'docs/a b.md', 'docs/007.txt', 'docs/008.txt', 'docs/009.txt']);
    const tree = renderTree(paths);
    assert.deepEqual(readTree(tree).sort(), [...paths].sort(), 'every path is in the tree, none invented');
    assert.match(tree, /^src\/area3\/: (\S+ )*mod13\.js /m);
    assert.match(tree, /^docs\/: 007\.txt 008\.txt 009\.txt "a b\.md"$/m, 'zero-padded names are not grouped');
    assert.equal(renderTree(['a1.js', 'a2.js', 'a3.js', 'a5.js']), 'a{1..3}.js a5.js');
    assert.ok(countTokens(tree) < 30_000, `${countTokens(tree)} tokens`);
  });

  it('keeps the signatures of a 300-file repository within the budget, and never a body', async () => {
    const { root, base } = await repository(synthetic(300));
    const result = await map(root, base, 'make step299 round its result');
    assert.equal(result.fileCount, 303);
    assert.deepEqual(readTree(result.tree).sort(), gitIn(root)('ls-files').trim().split('\n').sort());
    assert.ok(result.signatureTokens <= MAP_BOUNDS.tokens, `${result.signatureTokens} tokens`);
    assert.ok(countTokens(result.interfaces.map((i) => `${i.path}\n${i.interface}`).join('\n')) <= MAP_BOUNDS.tokens);
    assert.doesNotMatch(JSON.stringify(result), /BODY_/, 'no body is ever in the map');
    assert.equal(result.interfaces.length + result.omitted, 300);
    assert.equal(result.interfaces[0]?.path, 'src/area9/mod299.js', 'the file the request names comes first');
  });

  it('ranks first the files the request is about, by their paths, definitions and uses', async () => {
    const files = synthetic(100);
    files['src/report/durations.py'] =
      'from src.timing import Timer\n\n\ndef slowest_tests(results, count):\n    """The slowest tests."""\n    return sorted(results, key=lambda r: r.duration)[:count]\n\n\nclass DurationsReport:\n    def __init__(self, config):\n        self.limit = config.option.durations\n';
    files['src/timing.py'] = 'class Timer:\n    def elapsed(self):\n        return 0\n';
    const { root, base } = await repository(files);
    const result = await map(root, base, 'add a --durations option that prints the slowest tests', 256);
    assert.equal(result.interfaces[0]?.path, 'src/report/durations.py');
    assert.match(result.interfaces[0]!.interface, /^def slowest_tests\(results, count\):$/m);
    assert.match(result.interfaces[0]!.interface, /^class DurationsReport:$/m);
    assert.doesNotMatch(result.interfaces[0]!.interface, /sorted\(/, 'a signature, not a body');
    assert.ok(result.signatureTokens <= 256);
    // A budget is a budget: a smaller one shows fewer files, never more tokens.
    const small = await map(root, base, 'add a --durations option that prints the slowest tests', 300);
    const large = await map(root, base, 'add a --durations option that prints the slowest tests', 3000);
    assert.ok(small.interfaces.length < large.interfaces.length);
    assert.ok(large.signatureTokens <= 3000 && large.signatureTokens > 300);
  });

  it('reads definitions of ESM and CommonJS, TypeScript, Python, Go, Rust and Java, and knows their tests', async () => {
    const { root, base } = await repository(POLYGLOT);
    const result = await map(root, base, 'parse', 4000);
    const shown = Object.fromEntries(result.interfaces.map((i) => [i.path, i.interface]));
    assert.match(shown['lib/esm.mjs']!, /^export function parseArgs\(argv\) \{$/m);
    assert.match(shown['lib/cjs.js']!, /^function helper\(a\) \{$/m);
    assert.match(shown['lib/cjs.js']!, /^module\.exports\.parse = function parse\(text,\n {4}options\) \{$/m);
    assert.match(shown['lib/cjs.js']!, /^exports\.VERSION = '2\.0';$/m);
    assert.doesNotMatch(shown['lib/cjs.js']!, /local/, 'a function inside a body is not part of the interface');
    assert.match(shown['lib/types.ts']!, /^export interface Options/m);
    assert.match(shown['lib/types.ts']!, /^ {2}greet\(name: string\): string \{$/m);
    assert.match(shown['pkg/core.py']!, /^ {4}def count\(self, text\):$/m);
    assert.doesNotMatch(shown['pkg/core.py']!, /local/);
    assert.match(shown['homedir/homedir.go']!, /^func Dir\(\) \(string, error\) \{$/m);
    assert.match(shown['crate/src/lib.rs']!, /^pub fn parse\(s: &str\) -> usize \{$/m);
    assert.match(shown['java/src/main/java/com/x/Greeter.java']!, /^ {2}public String greet\(String who\) \{$/m);
    assert.equal(result.tests.files, 3, 'homedir_test.go, GreeterTest.java, and lib.rs with its mod tests');
    assert.deepEqual(
      result.tests.commands.map((c) => c.argv.join(' ')),
      ['go test ./...'],
    );
  });

  it("names a Rust crate's test module file, not the lib.rs that declares it (trial fallible47: `#[cfg(test)] mod test;` and src/test.rs)", async () => {
    const { root, base } = await repository({
      'Cargo.toml': '[package]\nname = "fallible"\nversion = "0.1.0"\n',
      'src/lib.rs': 'pub fn first() -> u8 {\n    1\n}\n\n#[cfg(test)]\nmod test;\n',
      'src/test.rs': 'use super::*;\n\n#[test]\nfn works() {\n    assert_eq!(first(), 1);\n}\n',
      'src/inline.rs': 'pub fn two() -> u8 {\n    2\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn two() {}\n}\n',
    });
    const result = await map(root, base, 'first', 4000);
    assert.equal(result.tests.files, 2, 'src/test.rs, and src/inline.rs with its inline mod tests');
    assert.deepEqual(result.tests.examples, ['src/test.rs'], 'a file of tests is the example, before a source that carries its own');
    assert.deepEqual(result.tests.inline, ['src/inline.rs'], 'only the source whose tests are inside it: lib.rs declares a module file');
  });

  it("counts and names a test folder's tests, not its data or helpers (trial tomli49: 979 test files, a .toml among the examples)", async () => {
    const data: Record<string, string> = {};
    for (let i = 0; i < 30; i++) data[`tests/data/valid/case-${i}.toml`] = `a = ${i}\n`;
    const { root, base } = await repository({
      'pyproject.toml': '[project]\nname = "tomli"\n',
      'src/tomli/_parser.py': 'def loads(s):\n    return {}\n',
      'tests/__init__.py': 'import tomli as tomllib\n',
      'tests/burntsushi.py': 'def convert(obj):\n    return obj\n',
      'tests/test_data.py': 'import unittest\n',
      'tests/test_misc.py': 'import unittest\n',
      'tests/data/invalid/array-missing-comma.toml': 'a = [1 2]\n',
      ...data,
    });
    const result = await map(root, base, 'parse_int', 4000);
    assert.equal(result.hasTests, true);
    assert.equal(result.tests.files, 3, 'test_data.py, test_misc.py and burntsushi.py; neither __init__.py nor the 31 .toml files');
    assert.deepEqual(result.tests.examples, ['tests/test_data.py'], 'one named as a test, and no data folder');
  });

  it('tags the same in the parse workers as in this thread, from a bundle that carries no package', async () => {
    const { root } = await repository(POLYGLOT);
    const jobs = Object.keys(POLYGLOT).flatMap((file) => {
      const language = languageOf(file);
      return language ? [{ file: path.join(root, file), language }] : [];
    });
    assert.equal(jobs.length, Object.keys(POLYGLOT).length);
    const inWorkers = await parseInWorkers(jobs, 2);
    assert.deepEqual(inWorkers, await parseFiles(jobs), 'a handful of files is parsed in this thread: the same tags');
    assert.ok(inWorkers.every((tags) => typeof tags === 'object' && tags !== null && tags.definitions.length > 0));
    const entry = await parseWorkerEntry();
    assert.ok('code' in entry, 'from src/, the worker runs a bundle');
    assert.deepEqual(
      [...entry.code.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]).filter((name) => !name!.startsWith('node:')),
      [],
      'the bundle requires no package: one would be looked for from where it is evaluated',
    );
  });

  it('parses a second map only for the blobs that changed, and survives a damaged cache', async () => {
    const { root, base } = await repository(synthetic(60));
    const gitDir = path.join(root, '.git');
    const first = await tagFiles(root, gitDir, await listFiles(root, base));
    assert.deepEqual([first.parsed, first.cached], [60, 0]);
    const again = await tagFiles(root, gitDir, await listFiles(root, base));
    assert.deepEqual([again.parsed, again.cached], [0, 60]);
    await fs.appendFile(path.join(root, 'src/area3/mod3.js'), 'export function added() {}\n');
    const git = gitIn(root);
    git('commit', '--quiet', '-am', 'one more function');
    const next = git('rev-parse', 'HEAD').trim();
    const changed = await tagFiles(root, gitDir, await listFiles(root, next));
    assert.deepEqual([changed.parsed, changed.cached], [1, 59]);
    assert.ok(changed.files.find((f) => f.path === 'src/area3/mod3.js')!.tags.definitions.some((d) => d.name === 'added'));
    const cacheFiles = await fs.readdir(path.join(process.env.SOPWORKS_CACHE_DIR!, 'repo-map'));
    for (const file of cacheFiles) await fs.writeFile(path.join(process.env.SOPWORKS_CACHE_DIR!, 'repo-map', file), '{"version":"x","entries":{"zz":1}}');
    const damaged = await tagFiles(root, gitDir, await listFiles(root, next));
    assert.deepEqual([damaged.parsed, damaged.cached], [60, 0], 'a cache that does not validate is rebuilt, never trusted');
  });

  it('lists but never parses generated, minified and binary sources, and caches them as such', async () => {
    const hand =
      'package durations\n\n// Durations is what the parser generated by hand; nothing here says not to edit it.\nfunc Durations() int { return 0 }\n';
    const late = `${'// about durations\n'.repeat(150)}var note = "// Code generated by nobody. DO NOT EDIT."\nfunc DurationsLate() int { return 1 }\n`;
    const { root, base } = await repository({
      'src/durations.go': hand,
      'src/late.go': late,
      'gen/durations_string.go':
        '// Code generated by "stringer -type=Durations"; DO NOT EDIT.\n\npackage gen\n\nfunc DurationsString() string { return "" }\n',
      'gen/durations_pb2.py': '# -*- coding: utf-8 -*-\n# Generated by the protocol buffer compiler.  DO NOT EDIT!\ndef durations_descriptor():\n    pass\n',
      'gen/schema.ts': '/**\n * @generated SignedSource<<0123>>\n */\nexport function durationsSchema() {}\n',
      'web/durations.min.js': 'function durationsMin(){return 1}\n',
      'web/durations.js': `function durationsPacked(){return [${'1,'.repeat(3000)}1]}\n`,
      'web/durations-binary.js': 'function durationsBinary() {}\n\0\0',
    });
    const result = await map(root, base, 'make Durations count in milliseconds', 3000);
    assert.deepEqual(result.interfaces.map((i) => i.path).sort(), ['src/durations.go', 'src/late.go']);
    assert.deepEqual(readTree(result.tree).sort(), gitIn(root)('ls-files').trim().split('\n').sort(), 'each skipped file is still in the tree');
    const gitDir = path.join(root, '.git');
    const again = await tagFiles(root, gitDir, await listFiles(root, base));
    assert.deepEqual([again.parsed, again.cached, again.files.length], [0, 7, 2], 'the skipped files are cached as not source (the .min.js is never read)');
  });

  it('keeps hostile file names to themselves: one line per folder, quoted, read back exactly', async () => {
    const { root, base } = await repository({
      'ok.js': 'export const a = 1;\n',
      'src/two words.js': 'export const b = 2;\n',
      'src/forged\nsrc/evil.js': 'export const c = 3;\n',
      'src/\u001b[2Jclear.js': 'export const d = 4;\n',
    });
    const result = await map(root, base, 'anything');
    assert.deepEqual(result.tree.split('\n'), ['ok.js', 'src/: "\\u001b[2Jclear.js" "two words.js"', '"src/forged\\nsrc"/: evil.js'], 'no name adds a line');
    assert.doesNotMatch(result.tree, /\u001b/);
    assert.deepEqual(readTree(result.tree).sort(), ['ok.js', 'src/\u001b[2Jclear.js', 'src/forged\nsrc/evil.js', 'src/two words.js'].sort());
  });

  it('reads the files asked for, refusing missing and binary ones with the reason, listing a folder, and showing an over-the-bound file in part', async () => {
    const { root } = await repository(synthetic(3));
    const read = await readRequestedFiles(
      root,
      { files: ['src/area1/mod1.js', 'nope.js', 'assets/blob.bin', 'src', 'src/area2/mod2.js'].map((p) => ({ path: p, why: 'test' })) },
      { maxFiles: 1, maxChars: 1000 },
    );
    assert.deepEqual(
      read.files.map((f) => f.path),
      ['src/area1/mod1.js'],
    );
    assert.deepEqual(
      read.refused.map((r) => r.reason),
      Array(4).fill('only 1 files are read per request'),
    );
    const all = await readRequestedFiles(
      root,
      { files: ['nope.js', 'assets/blob.bin', 'src'].map((p) => ({ path: p, why: 'test' })) },
      { maxFiles: 8, maxChars: 20 },
    );
    assert.deepEqual(
      all.refused.map((r) => r.reason),
      ['no such file in the repository', 'a binary file: it cannot be read or edited as text'],
    );
    // A folder is shown as the files in it, one line per folder.
    const folder = await readRequestedFiles(root, { files: [{ path: 'src', why: 'test' }] }, { maxFiles: 8, maxChars: 1000 });
    assert.match(folder.files[0]!.content, /^\(a folder: the 3 files in it, one line per folder\)\nsrc\/area0\/: mod0\.js\n/);
    const big = await readRequestedFiles(root, { files: [{ path: 'src/area1/mod1.js', why: 'test' }] }, { maxFiles: 8, maxChars: 60 });
    assert.deepEqual(big.refused, []);
    const whole = await fs.readFile(path.join(root, 'src/area1/mod1.js'), 'utf8');
    const [shown, said] = [big.files[0]!.content.slice(0, big.files[0]!.content.lastIndexOf('…')), big.files[0]!.content.split('\n').at(-2)!];
    assert.ok(whole.startsWith(shown) && shown.length <= 60 && shown.endsWith('\n'), 'whole lines from the start, within the bound');
    const lines = whole.trimEnd().split('\n').length;
    assert.equal(
      said,
      `… (${whole.length - shown.length} characters not shown: lines ${shown.split('\n').length}–${lines} of ${lines} — a file is shown up to 60 characters)`,
    );
  });

  it('shares the budget so the smaller files asked for are whole, after a large one asked for first (trial yargsp47: a 4,177-line test file left two files empty)', async () => {
    const large = Array.from({ length: 400 }, (_, i) => `line ${i} of a large test file`).join('\n');
    const { root } = await repository({
      'test/big.test.js': `${large}\n`,
      'lib/types.ts': 'export type A = 1;\n',
      'deno.ts': 'export * from "./lib/index.ts";\n',
    });
    const read = await readRequestedFiles(
      root,
      { files: ['test/big.test.js', 'lib/types.ts', 'deno.ts'].map((p) => ({ path: p, why: 'test' })) },
      { maxFiles: 8, maxChars: 24_000, totalChars: 3000 },
    );
    assert.deepEqual(
      read.files.map((f) => f.path),
      ['test/big.test.js', 'lib/types.ts', 'deno.ts'],
    );
    assert.equal(read.files[1]!.content, 'export type A = 1;\n');
    assert.equal(read.files[2]!.content, 'export * from "./lib/index.ts";\n');
    const big = read.files[0]!.content;
    // The smaller two are whole (50 characters); the large file's whole lines fill the rest, then the line that says so.
    const kept = big.slice(0, big.lastIndexOf('…')).length;
    assert.ok(kept > 2900 && kept <= 3000 - 50, `the large file has the rest of the budget: ${kept}`);
    assert.match(
      big,
      /characters not shown: lines \d+–400 of 400 — the prompt's budget for files read, 3000 characters, is shared among the 3 files asked for\)\n$/,
    );
  });

  it('shows a long file around the names asked about, or those its reason gives, with its start and end (trial click48: the Path class lay past the part shown)', async () => {
    const body = (from: number) => Array.from({ length: 300 }, (_, i) => `    # line ${from + i} of a long module`);
    const module = [
      'import os',
      '',
      'class Choice(ParamType):',
      ...body(1),
      'class Path(ParamType):',
      '    def convert(self, value, param, ctx):',
      ...body(400),
      'def last():',
      '    pass',
    ];
    const { root } = await repository({ 'src/click/types.py': `${module.join('\n')}\n` });
    const asked = await readRequestedFiles(
      root,
      { files: [{ path: 'src/click/types.py', why: 'the class the change is in', focus: ['Path.convert', 'Nowhere'] }] },
      { maxFiles: 8, maxChars: 6000 },
    );
    const shown = asked.files[0]!.content;
    assert.match(shown, /^import os\n/);
    assert.match(shown, /\nclass Path\(ParamType\):\n {4}def convert\(self, value, param, ctx\):\n/);
    assert.match(
      shown,
      /\ndef last\(\):\n {4}pass\n… \(shown in part: its start, the lines around Path\.convert and its end — a file is shown up to 6000 characters; not defined in it: Nowhere\)\n$/,
    );
    assert.match(shown, /^… \(lines \d+–\d+ of 607 not shown\)$/m);
    // Without `focus`, the names its reason gives that the file defines.
    const told = await readRequestedFiles(
      root,
      { files: [{ path: 'src/click/types.py', why: 'Path is what the change extends', focus: null }] },
      { maxFiles: 8, maxChars: 6000 },
    );
    assert.match(told.files[0]!.content, /\nclass Path\(ParamType\):\n/);
    // Neither: its start, as before.
    const plain = await readRequestedFiles(root, { files: [{ path: 'src/click/types.py', why: 'to see it' }] }, { maxFiles: 8, maxChars: 6000 });
    assert.doesNotMatch(plain.files[0]!.content, /class Path/);
  });

  it('gives each file at most an equal part of what the smaller ones leave', () => {
    assert.deepEqual(shares([100, 50, 10], 1000, 500), [100, 50, 10]);
    assert.deepEqual(shares([5000, 10, 5000], 3000, 24_000), [1495, 10, 1495]);
    assert.deepEqual(shares([5000, 100], 10_000, 2000), [2000, 100]);
    assert.deepEqual(shares([], 1000, 100), []);
  });
});
