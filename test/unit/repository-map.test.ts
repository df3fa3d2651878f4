/** The repository map stays bounded whatever the repository's size, and says what it left out. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { MAP_BOUNDS, mapRepository } from '../../src/capabilities/change/repository-map.ts';
import { readRequestedFiles } from '../../src/capabilities/change/read-files.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

async function syntheticRepository(files: number): Promise<{ root: string; base: string }> {
  const root = await tempDir('sopworks-map-');
  await fs.writeFile(path.join(root, 'package.json'), '{ "name": "synthetic", "scripts": { "test": "node --test" } }\n');
  await fs.writeFile(path.join(root, 'README.md'), '# synthetic\n');
  for (let i = 0; i < files; i++) {
    const dir = path.join(root, 'src', `area${i % 10}`);
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, `mod${i}.js`), `export function f${i}(a, b) {\n  return a + b + ${i}; // BODY_${i}\n}\n`);
  }
  await fs.mkdir(path.join(root, 'assets'));
  await fs.writeFile(path.join(root, 'assets', 'blob.bin'), Buffer.from([0, 1, 2, 0, 3]));
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd: root, encoding: 'utf8' });
  git('init', '--quiet');
  git('add', '.');
  git('commit', '--quiet', '-m', 'synthetic');
  return { root, base: git('rev-parse', 'HEAD').trim() };
}

describe('repository map', function () {
  this.timeout(60_000);
  after(removeTempDirs);

  it('lists every file of a small repository with each interface, and no bodies', async () => {
    const { root, base } = await syntheticRepository(20);
    const map = await mapRepository({ root, base, branch: 'sopworks/x', slug: 'x' });
    assert.equal(map.fileCount, 23);
    assert.equal(map.changeDir, 'docs/changes/1-x');
    assert.ok(map.tree.split('\n').includes('src/area3/mod13.js'));
    assert.equal(map.interfaces.length, 20);
    assert.equal(map.omitted, 0);
    assert.deepEqual(
      map.manifests.map((m) => m.path),
      ['package.json'],
    );
    assert.doesNotMatch(JSON.stringify(map), /BODY_/);
  });

  it('keeps a 500-file repository within the same bounds, summarising folders and counting what it left out', async () => {
    const { root, base } = await syntheticRepository(500);
    const map = await mapRepository({ root, base, branch: 'sopworks/x', slug: 'x' });
    assert.equal(map.fileCount, 503);
    assert.match(map.tree, /^src\/area0\/ \(50 files\)$/m);
    assert.match(map.tree, /\(503 files in all: ask to read the ones you need\)/);
    const interfaceChars = map.interfaces.reduce((n, i) => n + i.interface.length + i.path.length, 0);
    assert.ok(interfaceChars <= MAP_BOUNDS.interfaceChars);
    assert.equal(map.interfaces.length + map.omitted, 500);
    assert.ok(JSON.stringify(map).length < 16_000, `the map is ${JSON.stringify(map).length} characters`);
  });

  it('reads the files asked for, refusing missing, binary, folder and over-the-bound ones with the reason', async () => {
    const { root } = await syntheticRepository(3);
    const read = await readRequestedFiles(
      root,
      { files: ['src/area1/mod1.js', 'nope.js', 'assets/blob.bin', 'src', 'src/area2/mod2.js'].map((p) => ({ path: p, why: 'test' })) },
      { maxFiles: 1, maxChars: 1000 },
    );
    assert.deepEqual(
      read.files.map((f) => f.path),
      ['src/area1/mod1.js'],
    );
    assert.deepEqual(read.refused, [
      { path: 'nope.js', reason: 'only 1 files are read per request' },
      { path: 'assets/blob.bin', reason: 'only 1 files are read per request' },
      { path: 'src', reason: 'only 1 files are read per request' },
      { path: 'src/area2/mod2.js', reason: 'only 1 files are read per request' },
    ]);
    const all = await readRequestedFiles(
      root,
      { files: ['nope.js', 'assets/blob.bin', 'src'].map((p) => ({ path: p, why: 'test' })) },
      { maxFiles: 8, maxChars: 20 },
    );
    assert.deepEqual(
      all.refused.map((r) => r.reason),
      [
        'no such file in the repository',
        'a binary file: it cannot be read or edited as text',
        'a folder, not a file: name the files in it (the map lists them)',
      ],
    );
    const big = await readRequestedFiles(root, { files: [{ path: 'src/area1/mod1.js', why: 'test' }] }, { maxFiles: 8, maxChars: 20 });
    assert.match(big.refused[0]!.reason, /^too large \(\d+ characters; the limit is 20\)/);
  });
});
