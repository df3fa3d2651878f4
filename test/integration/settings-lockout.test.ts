/**
 * A settings file can never lock anyone out (issue 38): with a user config that is not valid TOML, or a
 * .env that cannot be read, the commands that read no settings (`--version`, `--help`, `status`, `sop`,
 * `init --force`) work and say what is wrong, those that need a model stop naming the file, the line and
 * the column, and `init --force` replaces the broken file so that everything works again. Run as a user
 * runs it: the real CLI in a fresh folder.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { readUserConfig } from '../../src/apps/cli/index.ts';
import { type CliResult, runCli } from '../helpers/run-cli.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

describe('settings that cannot lock you out', function () {
  this.timeout(120_000);
  let work: string;
  let configHome: string;
  let configFile: string;
  const BROKEN = '[model]\nname = "qwen2.5-coder:14b"\nbase_url = \n';

  before(async () => {
    work = await tempDir('sopworks-lockout-');
    configHome = path.join(work, 'config');
    configFile = path.join(configHome, 'sopworks', 'config.toml');
  });
  beforeEach(async () => {
    await fs.mkdir(path.dirname(configFile), { recursive: true });
    await fs.writeFile(configFile, BROKEN);
  });
  after(removeTempDirs);

  const cli = (args: string[], cwd = work): Promise<CliResult> => runCli(args, { cwd, env: { XDG_CONFIG_HOME: configHome } });
  const WHERE = /config\.toml is not valid TOML at line 3, column 12: invalid value/;

  it('runs the commands that read no settings, each warning once what is wrong and how to fix it', async () => {
    assert.match((await cli(['--version'])).stdout, /^\d+\.\d+\.\d+/);
    const help = await cli(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Usage: sopworks/);
    const status = await cli(['status']);
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, /No sopworks runs in/);
    assert.match(status.stderr, /^warning: .*config\.toml is not valid TOML at line 3, column 12/m);
    assert.match(status.stderr, /those that do stop until it is fixed\. Fix that line, or run `sopworks init --force`/);
    const sop = await cli(['sop', 'vocabulary']);
    assert.equal(sop.code, 0, sop.stderr);
    assert.match(sop.stderr, WHERE);
  });

  it('stops a command that needs a model, naming the file, the line and the column, with the line quoted', async () => {
    for (const args of [['run', 'a word counter'], ['doctor']]) {
      const result = await cli(args);
      assert.equal(result.code, 2, args.join(' '));
      assert.match(result.stderr, WHERE, args.join(' '));
      assert.match(result.stderr, /^ {4}3: {2}base_url = $/m, 'the broken line is quoted');
      assert.match(result.stderr, /Fix that line, or run `sopworks init --force` to write the file afresh\./);
      assert.equal(result.stdout, '');
    }
    await assert.rejects(fs.stat(path.join(work, 'output')), 'nothing was started');
  });

  it('lets init --force replace the broken file, after which the settings are read again', async () => {
    const init = await cli(['init', '--force', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'qwen2.5-coder:14b', '--api-key-env', 'none', '--no-check']);
    assert.equal(init.code, 0, init.stderr);
    assert.match(init.stdout, /^Wrote .*config\.toml\./m);
    assert.deepEqual(readUserConfig(configFile)?.model, { base_url: 'http://127.0.0.1:9/v1', name: 'qwen2.5-coder:14b' });
    const status = await cli(['status']);
    assert.equal(status.stderr, '');
  });

  it('asks before replacing a broken file when init is run without --force, saying it is not valid', async () => {
    const init = await cli(['init', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm', '--api-key-env', 'none', '--no-check']);
    assert.match(init.stderr, /config\.toml exists and is not valid\. Replace it\? \(y\/N\)/);
    assert.match(init.stdout, /^Kept .*config\.toml\./m);
    assert.equal(await fs.readFile(configFile, 'utf8'), BROKEN, 'an ended input answers no: the file is kept as it was');
  });

  it('treats a .env that cannot be read the same way: named, with what to do', async () => {
    const folder = path.join(work, 'with-env-folder');
    await fs.mkdir(path.join(folder, '.env'), { recursive: true });
    await fs.rm(configFile);
    const run = await cli(['run', 'a word counter'], folder);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /Cannot read .*\.env: not a file\.\n {2}Make it a readable file of NAME=value lines/);
    const status = await cli(['status'], folder);
    assert.equal(status.code, 0);
    assert.match(status.stderr, /^warning: Cannot read .*\.env: not a file\./m);
  });
});
