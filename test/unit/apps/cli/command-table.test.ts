/**
 * The command line as a table (src/apps/cli/commands/): every entry reachable by name and listed in
 * `--help`, a typo'd command or flag answered with the closest name (exit 2, and a JSON line under
 * --json), `--version`, and errors mapped to exit codes by their code — never by their text. Run in
 * this process through `main` with an output that keeps the lines: no command here runs a handler.
 */
import assert from 'node:assert/strict';
import { CommanderError } from 'commander';
import type { CommandEntry } from '../../../../src/apps/cli/command-table.ts';
import { COMMANDS } from '../../../../src/apps/cli/commands/index.ts';
import { reportError } from '../../../../src/apps/cli/error-exit.ts';
import { main } from '../../../../src/apps/cli/main.ts';
import type { Output } from '../../../../src/apps/cli/output.ts';
import { SopworksError } from '../../../../src/ground/errors.ts';
import { SOPWORKS_VERSION } from '../../../../src/ground/version.ts';
import { NO_USER_CONFIG } from '../../../helpers/run-cli.ts';

function lines(): Output & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (line) => stdout.push(line), err: (line) => stderr.push(line) };
}

async function cli(...args: string[]) {
  const io = lines();
  const code = await main(['node', 'sopworks', ...args], io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

/** Every command path of the table: `run`, `sop validate`, … */
const paths = (entries: readonly CommandEntry[], prefix: string[] = []): string[][] =>
  entries.flatMap((e) => [[...prefix, e.name], ...paths(e.subcommands ?? [], [...prefix, e.name])]);

describe('the command table', () => {
  // main() loads settings into process.env and sets a proxy for every request from settings it finds: none here.
  const saved = { ...process.env };
  before(() => {
    for (const name of Object.keys(process.env)) if (/^(https?|no|all)_proxy$/i.test(name)) delete process.env[name];
    process.env.XDG_CONFIG_HOME = NO_USER_CONFIG;
  });
  after(() => {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  });

  it('lists every command in --help, and gives each its own --help', async () => {
    const top = await cli('--help');
    assert.equal(top.code, 0);
    for (const entry of COMMANDS) assert.match(top.out, new RegExp(`^  ${entry.name}\\b`, 'm'), entry.name);
    for (const path of paths(COMMANDS)) {
      const help = await cli(...path, '--help');
      assert.equal(help.code, 0, path.join(' '));
      assert.match(help.out, new RegExp(`^Usage: sopworks ${path.join(' ')} `, 'm'), path.join(' '));
    }
    assert.deepEqual(await cli('--version'), { code: 0, out: SOPWORKS_VERSION, err: '' });
  });

  it('answers a typo with the closest command or flag, exit 2, and a JSON line under --json', async () => {
    for (const [args, says] of [
      [['runn'], /unknown command 'runn'\n\(Did you mean run\?\)/],
      [['sop', 'valdate'], /unknown command 'valdate'\n\(Did you mean validate\?\)/],
      [['run', '--forse', 'x'], /unknown option '--forse'\n\(Did you mean --force\?\)/],
      [['submit', '--instructons', 'f', 'x'], /unknown option '--instructons'\n\(Did you mean --instructions\?\)/],
    ] as const) {
      const result = await cli(...args);
      assert.equal(result.code, 2, args.join(' '));
      assert.match(result.err, says);
      assert.equal(result.out, '', 'nothing on stdout without --json');
    }
    const json = await cli('run', '--json', '--forse', 'x');
    assert.equal(json.code, 2);
    assert.deepEqual(JSON.parse(json.out), {
      type: 'error',
      code: 'USAGE',
      message: "error: unknown option '--forse'\n(Did you mean --force?)",
      hint: null,
      exitCode: 2,
    });
  });

  it('maps an error to its exit code by its code, whatever its message says', () => {
    const exit = (error: unknown) => reportError(error, ['node', 'sopworks'], lines());
    assert.equal(exit(new SopworksError('PROJECT_BUSY', 'a run failed')), 2, 'the user can fix it');
    assert.equal(exit(new SopworksError('USAGE', 'the run failed unexpectedly')), 2);
    assert.equal(exit(new SopworksError('GIT_FAILED', 'usage: git commit')), 1, 'not the words, the code');
    assert.equal(exit(new Error('PROJECT_BUSY: in use by another process')), 1, 'an unexpected error is never a usage error');
    assert.equal(exit(new CommanderError(0, 'commander.helpDisplayed', '')), 0);
    const io = lines();
    assert.equal(reportError(new SopworksError('NOT_RESUMABLE', 'no'), ['node', 'sopworks', 'resume', '--json', 'x'], io), 2);
    assert.deepEqual(JSON.parse(io.stdout[0]!), { type: 'error', code: 'NOT_RESUMABLE', message: 'no', hint: null, exitCode: 2 });
  });
});
