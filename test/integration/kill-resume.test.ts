/**
 * Crash safety. A multi-file scripted run (with a simulated latency) is SIGKILLed once after each kind of
 * progress line — a call asked, a reply read, a message posted, a commit, a test round started, a test
 * round finished — each in another role's phase, plus mid-commit and mid-log-write by fault injection,
 * and each is resumed. Every resumed repository must equal the uninterrupted one: the same tree, the same
 * commit subjects in the same order, and the same board, with no message twice.
 *
 * The killed and the interrupted runs are child processes (a signal ends a process); the resumes, and
 * the uninterrupted run they are held to, run in this process (test/helpers/in-process.ts).
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { readAppendLog } from '../../src/ground/files/index.ts';
import { sopworks } from '../helpers/in-process.ts';
import { BIN, DEMO } from '../helpers/paths.ts';
import { cleanEnv } from '../helpers/run-cli.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const exec = promisify(execFile);
const git = async (cwd: string, ...args: string[]) => (await exec('git', args, { cwd })).stdout.trim();
const LATENCY = { SOPWORKS_SCRIPTED_LATENCY_MS: '25' };

interface RunFacts {
  tree: string;
  subjects: string[];
  board: string[];
}

async function facts(project: string): Promise<RunFacts> {
  const { records } = await readAppendLog(path.join(project, '.sopworks', 'board.jsonl'));
  return {
    tree: await git(project, 'rev-parse', 'HEAD^{tree}'),
    subjects: (await git(project, 'log', '--reverse', '--format=%s')).split('\n'),
    // A test report's raw runner output carries timings and temp paths; everything else must match.
    board: (records as { id: string; type: string; from: string; to: string; payload: Record<string, unknown> }[]).map((m) =>
      JSON.stringify([m.id, m.type, m.from, m.to, m.type === 'TestReport' ? { ...m.payload, output: '(runner output)' } : m.payload]),
    ),
  };
}

/** Starts a run and SIGKILLs it once a progress line matches `after`; or lets a fault-injection point kill it. */
function runUntilKilled(out: string, options: { after?: RegExp; crashAt?: string }): Promise<{ signal: string | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const env = cleanEnv({ ...LATENCY, ...(options.crashAt ? { SOPWORKS_CRASH_AT: options.crashAt } : {}) });
    const child = spawn(process.execPath, [BIN, 'run', '--llm', `scripted:${DEMO}`, '--out', out], { cwd: out, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (options.after?.test(stdout) && !child.killed) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('close', (_code, signal) => resolve({ signal, stdout }));
  });
}

const resume = (project: string, env: Record<string, string> = LATENCY) => sopworks(['resume', project], { cwd: path.dirname(project), env });

describe('kill -9 and resume', function () {
  this.timeout(300_000);
  let reference: RunFacts;
  let done: string;

  before(async () => {
    const out = await tempDir();
    const run = await sopworks(['run', '--llm', `scripted:${DEMO}`, '--out', out], { cwd: out, env: LATENCY });
    assert.equal(run.code, 0, run.stderr);
    done = path.join(out, 'wordfreq');
    reference = await facts(done);
  });
  after(removeTempDirs);

  // One kill per kind of progress line, each at its first line of that kind in a phase of its own: found
  // by what the line says, never by its number, so none can fall past the end of a shorter run.
  const killPoints: [string, RegExp][] = [
    ['a call asked (the Product Manager’s first)', /^product-manager +… write_prd/m],
    ['a reply read, not yet posted (the design)', /^architect +✓ write_design/m],
    ['a message posted, not yet committed (the task graph)', /^architect +⇢ TaskGraph/m],
    ['a commit, with other files’ calls in flight', /^engineer +● commit feat: add src\/tokenize\.js/m],
    ['a test round started (round 1 in flight)', /^qa +▶ tests round 1/m],
    ['a test round finished, its report not yet posted', /^qa +■ tests round 1/m],
  ];
  for (const [kind, after] of killPoints) {
    it(`resumes a run killed after ${kind} to the same repository`, async () => {
      const out = await tempDir();
      const killed = await runUntilKilled(out, { after });
      assert.equal(killed.signal, 'SIGKILL', `the run was killed before it finished:\n${killed.stdout}`);
      const project = path.join(out, 'wordfreq');
      const resumed = await resume(project);
      assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
      assert.deepEqual(await facts(project), reference);
    });
  }

  it('resumes a run killed in the middle of a git commit', async () => {
    const out = await tempDir();
    const killed = await runUntilKilled(out, { crashAt: 'git.commit:6' });
    assert.equal(killed.signal, 'SIGKILL');
    const project = path.join(out, 'wordfreq');
    const before = (await git(project, 'log', '--format=%s')).split('\n').length;
    // Commits go to git in batches (one `git fast-import` stream): the one holding the sixth is lost
    // whole, so five or fewer are made.
    assert.ok(before >= 1 && before <= 5, `the sixth commit was cut off (${before} made)`);
    const resumed = await resume(project);
    assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
    assert.deepEqual(await facts(project), reference);
  });

  it('drops a torn last line of the board log and resumes', async () => {
    const out = await tempDir();
    const killed = await runUntilKilled(out, { crashAt: 'board.append:7' });
    assert.equal(killed.signal, 'SIGKILL');
    const project = path.join(out, 'wordfreq');
    const log = await fs.readFile(path.join(project, '.sopworks', 'board.jsonl'), 'utf8');
    assert.ok(!log.endsWith('\n'), 'the log ends in a torn line');
    const resumed = await resume(project);
    assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
    assert.match(resumed.stdout, /Dropped a torn last line of the board log/);
    assert.deepEqual(await facts(project), reference);
  });

  it('stops on Ctrl-C after the steps in flight (exit 130, interrupted) and resumes', async () => {
    const out = await tempDir();
    const child = spawn(process.execPath, [BIN, 'run', '--llm', `scripted:${DEMO}`, '--out', out], {
      cwd: out,
      env: cleanEnv(LATENCY),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (/write_file src\/count\.js/.test(stdout) && !child.killed) child.kill('SIGINT');
    });
    assert.equal(await closed, 130, stdout);
    assert.match(stdout, /Stopping after the steps in flight/);
    assert.match(stdout, /Outcome\s+interrupted/);
    assert.match(stdout, /Continue it with: sopworks resume /);
    const project = path.join(out, 'wordfreq');
    // The files under way were finished, and no other was started: src/cli.js (which needs three of
    // them) was never written — the Engineer did not go on through the whole task graph first.
    const { records } = await readAppendLog(path.join(project, '.sopworks', 'board.jsonl'));
    const code = (records as { id: string; type: string; payload: { path?: string } }[]).filter((m) => m.type === 'Code');
    const written = code.map((m) => m.payload.path);
    assert.ok(written.includes('src/count.js'), `the file under way was finished (${written.join(', ')})`);
    assert.ok(!written.includes('src/cli.js'), `no file was started after Ctrl-C (${written.join(', ')})`);
    // What was finished is committed before the run ends: nothing is left for resume to call "a crash".
    const committed = await git(project, 'log', '--format=%(trailers:key=Sopworks-Message,valueonly)');
    for (const m of code) assert.ok(committed.includes(m.id), `${m.payload.path} (${m.id}) was committed before the run ended`);
    const status = await sopworks(['status', out], { cwd: out });
    assert.match(status.stdout, /^wordfreq\s+interrupted\s+—\s+engineer → Code/m);
    const resumed = await resume(project);
    assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
    assert.doesNotMatch(resumed.stdout + resumed.stderr, /crash/, 'resume names what happened: nothing crashed');
    assert.deepEqual(await facts(project), reference);
  });

  it('stops at once on a second Ctrl-C (exit 130), and resumes', async () => {
    const out = await tempDir();
    const child = spawn(process.execPath, [BIN, 'run', '--llm', `scripted:${DEMO}`, '--out', out], {
      cwd: out,
      env: cleanEnv({ SOPWORKS_SCRIPTED_LATENCY_MS: '2000' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let sent = 0;
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      // Exactly two: the first once a step is in flight, the second once the first was acknowledged.
      if (sent === 0 && /… write_prd/.test(stdout)) {
        sent = 1;
        child.kill('SIGINT');
      } else if (sent === 1 && /Stopping after the steps in flight/.test(stdout)) {
        sent = 2;
        child.kill('SIGINT');
      }
    });
    assert.equal(await closed, 130, stdout);
    assert.match(stdout, /Outcome\s+interrupted — stopped by the user \(at once\)/);
    const resumed = await resume(path.join(out, 'wordfreq'));
    assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
    assert.deepEqual(await facts(path.join(out, 'wordfreq')), reference);
  });

  it('refuses a second process on a running project, and takes over the lock of a dead one', async () => {
    const out = await tempDir();
    // Slow enough that the run is still going when the second process has started, however loaded the machine.
    const child = spawn(process.execPath, [BIN, 'run', '--llm', `scripted:${DEMO}`, '--out', out], {
      cwd: out,
      env: cleanEnv({ SOPWORKS_SCRIPTED_LATENCY_MS: '3000' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const project = path.join(out, 'wordfreq');
    const closed = new Promise((resolve) => child.on('close', resolve));
    await new Promise<void>((resolve) => child.stdout.on('data', (d: Buffer) => /write_prd/.test(d.toString()) && resolve()));
    const second = await resume(project, {});
    assert.equal(second.code, 2);
    assert.match(second.stderr, new RegExp(`in use by another sopworks process \\(pid ${child.pid}\\)`));
    child.kill('SIGKILL');
    await closed;
    const resumed = await resume(project, {});
    assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
    assert.match(resumed.stdout, new RegExp(`Took over the lock of process ${child.pid}`));
  });

  it('refuses to resume a run that is done', async () => {
    const again = await resume(done, {});
    assert.equal(again.code, 2);
    assert.match(again.stderr, /finished with outcome done; there is nothing to resume/);
  });
});
