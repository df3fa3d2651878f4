/**
 * Crash safety of a Python change (colours-py of the change suite: tox's unittest command, three files
 * and QA's tests): SIGKILLed at a progress line of each phase — the base's tests just run, the first
 * file done with the others' edits in flight, between the commits, a test round in flight — then
 * resumed, the branch is the uninterrupted run's: same tree, same commits; with --commit-documents
 * too, its documents committed once each. No model call is asked twice: the scenario has one reply per call.
 * The killed runs are child processes (a signal ends a process); the resumes, and the uninterrupted runs
 * they are held to, run in this process (test/helpers/in-process.ts).
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { sopworks } from '../helpers/in-process.ts';
import { BIN, ROOT } from '../helpers/paths.ts';
import { cleanEnv } from '../helpers/run-cli.ts';
import { BUBBLEWRAP, PYTHON, requireSystem } from '../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const FIXTURE = path.join(ROOT, 'examples', 'eval', 'change', 'repos', 'colours-py');
const SCENARIO = path.join(ROOT, 'examples', 'eval', 'change', 'colours-py.yaml');
const LATENCY = { SOPWORKS_SCRIPTED_LATENCY_MS: '25' };
const DATED = { GIT_AUTHOR_DATE: '2020-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2020-01-01T00:00:00Z' };

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', ...args], { cwd, encoding: 'utf8', env: { ...process.env, ...DATED } });

async function repository(): Promise<{ repo: string; out: string }> {
  const dir = await tempDir('sopworks-py-kill-');
  const repo = path.join(dir, 'colours');
  await fs.cp(FIXTURE, repo, { recursive: true });
  git(repo, 'init', '--quiet', '--initial-branch=main');
  git(repo, 'add', '.');
  git(repo, 'commit', '--quiet', '-m', 'colours');
  return { repo, out: path.join(dir, 'out') };
}

const facts = (repo: string) => {
  const branch = git(repo, 'branch', '--list', '--format=%(refname:short)', 'sopworks/*').trim();
  return {
    tree: git(repo, 'rev-parse', `${branch}^{tree}`).trim(),
    subjects: git(repo, 'log', '--reverse', '--format=%s', `main..${branch}`).trim().split('\n'),
  };
};

function killedAfter(lines: number, repo: string, out: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'change', repo, '--llm', `scripted:${SCENARIO}`, '--out', out, ...args], {
      cwd: ROOT,
      env: cleanEnv(LATENCY),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (!child.killed && stdout.split('\n').length - 1 >= lines) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('close', (_code, signal) => (signal === 'SIGKILL' ? resolve(stdout) : reject(new Error(`not killed after ${lines} lines:\n${stdout}`))));
  });
}

describe('sopworks change: kill -9 and resume of a Python change', function () {
  this.timeout(600_000);
  before(function () {
    requireSystem(this, BUBBLEWRAP, PYTHON);
  });
  after(removeTempDirs);

  for (const args of [[], ['--commit-documents']]) {
    describe(args.length > 0 ? 'with its documents committed' : 'its branch the change alone', () => {
      let reference: { tree: string; subjects: string[] };
      let phases: number[];
      before(async () => {
        const { repo, out } = await repository();
        const run = await sopworks(['change', repo, '--llm', `scripted:${SCENARIO}`, '--out', out, ...args], { cwd: ROOT, env: LATENCY });
        assert.equal(run.code, 0, run.stdout + run.stderr);
        reference = facts(repo);
        const printed = run.stdout.split('\n');
        const at = (pattern: RegExp) => printed.findIndex((line) => pattern.test(line)) + 1;
        // A progress line of each phase: base tests run, the first file posted, the second file's review asked, a commit, round 1 started.
        phases = [
          at(/■ tests base: passed/),
          at(/⇢ Code → all msg-\d+ colours\/ansi\.py/),
          at(/… review_edit colours\/__init__\.py/),
          at(/● commit /),
          at(/▶ tests round 1/),
        ];
        assert.ok(
          phases.every((n) => n > 0),
          `every phase shows: ${phases.join(', ')}\n${run.stdout}`,
        );
      });

      // With the documents committed, the phases where the most commits are in flight.
      for (const phase of args.length > 0 ? [2, 3] : [0, 1, 2, 3, 4]) {
        it(`resumes to the same branch after a kill at phase ${phase + 1} of 5`, async () => {
          const { repo, out } = await repository();
          const killed = await killedAfter(phases[phase]!, repo, out, args);
          const worktree = path.join(out, (await fs.readdir(out))[0]!);
          const resumed = await sopworks(['resume', worktree], { cwd: ROOT, env: LATENCY });
          assert.equal(resumed.code, 0, `killed after:\n${killed}\nresumed:\n${resumed.stdout}${resumed.stderr}`);
          assert.deepEqual(facts(repo), reference);
        });
      }
    });
  }
});
