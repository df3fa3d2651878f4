/**
 * A closed stdout stops nothing that was asked for (issue 38): `sopworks run … | head -1` in a real shell
 * pipeline — the reader goes away after one line — and the run goes on to the same end an uninterrupted
 * demo reaches, says once on stderr that its lines are no longer shown and where to read how it ended,
 * exits with its outcome's code (never 130, Ctrl-C's), and leaves nothing running.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { demoTree } from '../helpers/demo-tree.ts';
import { BIN, DEMO } from '../helpers/paths.ts';
import { cleanEnv } from '../helpers/run-cli.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const exec = promisify(execFile);
const quote = (arg: string): string => `'${arg.replaceAll("'", "'\\''")}'`;

/** `sopworks run … <redirect> | head -<lines>` in bash; the run's own exit code, and what head and stderr got. */
async function pipedRun(out: string, redirect: string, lines: number): Promise<{ code: number; shown: string; stderr: string }> {
  const run = [process.execPath, BIN, 'run', '--llm', `scripted:${DEMO}`, '--out', out].map(quote).join(' ');
  const script = `${run} ${redirect} | head -${lines}; exit "\${PIPESTATUS[0]}"`;
  return exec('bash', ['-c', script], { cwd: out, env: cleanEnv({ SOPWORKS_SCRIPTED_LATENCY_MS: '10' }) }).then(
    ({ stdout, stderr }) => ({ code: 0, shown: stdout, stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, shown: e.stdout, stderr: e.stderr }),
  );
}

/** The processes whose command line names `dir`: none once the pipeline has ended. */
async function processesNaming(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const cmdline = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(dir)) found.push(`${pid}: ${cmdline.replaceAll('\0', ' ')}`);
  }
  return found;
}

async function runRecord(project: string): Promise<{ outcome: string; reason: string }> {
  return JSON.parse(await fs.readFile(path.join(project, '.sopworks', 'run.json'), 'utf8')) as { outcome: string; reason: string };
}

describe('a run whose output is closed early', function () {
  this.timeout(240_000);
  after(removeTempDirs);

  it('goes on to its end when stdout is piped into `head -1`, says so on stderr, and exits with its outcome', async () => {
    const out = await tempDir();
    const { code, shown, stderr } = await pipedRun(out, '', 1);
    assert.equal(code, 0, stderr);
    assert.equal(shown.split('\n').filter(Boolean).length, 1, 'head got its one line');
    const project = path.join(out, 'wordfreq');
    assert.match(
      stderr,
      /the output was closed \(its reader went away\): the run goes on without showing its lines; `sopworks status \S*wordfreq` tells how it ends/,
    );
    assert.doesNotMatch(stderr, /stopped by the user|EPIPE|\n\s+at /, 'no stop and no stack trace');
    const record = await runRecord(project);
    assert.equal(record.outcome, 'done', record.reason);
    const tree = (await exec('git', ['rev-parse', 'HEAD^{tree}'], { cwd: project })).stdout.trim();
    assert.equal(tree, await demoTree(), 'the same repository an uninterrupted demo makes');
    const lastMessage = (await fs.readFile(path.join(project, '.sopworks', 'board.jsonl'), 'utf8')).trim().split('\n').at(-1)!;
    assert.match(lastMessage, /"type":"Outcome"/, 'the board ends with the run’s outcome');
    assert.deepEqual(await processesNaming(out), [], 'nothing left running');
  });

  it('goes on to its end when stdout and stderr both go into `head -2`, with nothing left to say it on', async () => {
    const out = await tempDir();
    const { code, shown } = await pipedRun(out, '2>&1', 2);
    assert.equal(code, 0, shown);
    assert.equal(shown.split('\n').filter(Boolean).length, 2);
    assert.equal((await runRecord(path.join(out, 'wordfreq'))).outcome, 'done');
    assert.deepEqual(await processesNaming(out), [], 'nothing left running');
  });
});
