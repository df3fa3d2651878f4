/**
 * bin/sopworks.js in a clone, as the README's set-up runs it (`npm start`, `npm run demo`): src/ through
 * tsx, no build step. The other suites start the CLI from the JavaScript built into dist/ before them
 * (test/helpers/built-cli.mjs); this one holds that both give the same demo, byte for byte in git.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { demoTree } from '../helpers/demo-tree.ts';
import { BIN, DEMO, ROOT, SOURCE_BIN } from '../helpers/paths.ts';
import { runCli } from '../helpers/run-cli.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const start = (bin: string, args: string[], cwd: string) => runCli(args, { cwd, bin });

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

  it('loads the OpenAI client, OpenTelemetry and the egress proxy only when a run uses them', async () => {
    // About 900 modules between them, once loaded in every process: a start costs what it loads.
    const out = await tempDir('sopworks-cli-bin-');
    const log = path.join(out, 'modules.txt');
    const hook = pathToFileURL(path.join(ROOT, 'test', 'helpers', 'module-log.mjs')).href;
    const demo = await runCli(['run', '--llm', `scripted:${DEMO}`, '--out', out], {
      cwd: out,
      env: { NODE_OPTIONS: `--import ${hook}`, MODULE_LOG_FILE: log },
    });
    assert.equal(demo.code, 0, demo.stdout + demo.stderr);
    const loaded = (await fs.readFile(log, 'utf8')).split('\n').filter(Boolean);
    const packages = new Set(loaded.flatMap((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? []));
    // The log is whole: the run's own modules and the packages every run needs are in it.
    assert.ok(loaded.some((url) => url.includes('/dist/company/start-run.js')) && packages.has('zod') && packages.has('handlebars'), [...packages].join(' '));
    const heavy = [...packages].filter((name) => /^(@langchain\/|langchain$|langsmith$|openai$|@opentelemetry\/|undici$|node-forge$)/.test(name));
    assert.deepEqual(heavy, [], 'a scripted run with no tracing and no install loads none of them');
  });
});
