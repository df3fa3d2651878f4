/**
 * bin/sopworks.js in a clone, as the README's set-up runs it (`npm start`, `npm run demo`): src/ through
 * tsx, no build step. The other suites start the CLI from the JavaScript built into dist/ before them
 * (test/helpers/built-cli.mjs); this one holds that both give the same demo, byte for byte in git.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { demoTree } from '../helpers/demo-tree.ts';
import { BIN, DEMO, ROOT, SOURCE_BIN } from '../helpers/paths.ts';
import { cleanEnv } from '../helpers/run-cli.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

function start(bin: string, args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const treeOf = (project: string) => execFileSync('git', ['rev-parse', 'HEAD^{tree}'], { cwd: project, encoding: 'utf8' }).trim();

describe('bin/sopworks.js in a clone and the built CLI the tests start', function () {
  this.timeout(300_000);
  after(removeTempDirs);

  it('run the same demo: src/ through tsx in a clone, dist/ built from it', async () => {
    const version = JSON.parse(await fs.readFile(path.join(ROOT, 'package.json'), 'utf8')).version as string;
    for (const bin of [SOURCE_BIN, BIN]) {
      const shown = await start(bin, ['--version'], ROOT);
      assert.equal(shown.stdout.trim(), version, `${path.relative(ROOT, bin)} --version: ${shown.stderr}`);
      const out = await tempDir('sopworks-cli-bin-');
      const demo = await start(bin, ['run', '--llm', `scripted:${DEMO}`, '--out', out], out);
      assert.equal(demo.code, 0, `${path.relative(ROOT, bin)}: ${demo.stdout}${demo.stderr}`);
      assert.match(demo.stdout, /^Outcome\s+done/m);
      assert.equal(treeOf(path.join(out, 'wordfreq')), await demoTree(), `${path.relative(ROOT, bin)} gives the tree of the demo run in process`);
    }
  });
});
