/**
 * Crash safety of a change run, as kill-resume.test.ts proves it for new projects: a change of two files
 * (the second waits for the first) is SIGKILLed after a progress line — spread over every phase, and
 * right after the first file's commit with the second edit in flight — and inside a git commit, then
 * resumed. Every resumed branch must equal the uninterrupted one (tree and commit subjects), and no model
 * call may be asked twice: the scenario has exactly one reply per call, so a call asked again would find
 * none and fail the run. `SOPWORKS_KILL_EVERY_LINE=1` kills after every progress line instead.
 *
 * The killed runs are child processes (a signal ends a process); the resumes, and the uninterrupted run
 * they are held to, run in this process (test/helpers/in-process.ts).
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { GREETINGS_BRANCH as BRANCH, CHANGE_FIXTURE, GREETINGS_SCENARIO, type Reply } from '../helpers/change-repo.ts';
import { sopworks } from '../helpers/in-process.ts';
import { BIN, ROOT } from '../helpers/paths.ts';
import { cleanEnv } from '../helpers/run-cli.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const LATENCY = { SOPWORKS_SCRIPTED_LATENCY_MS: '25' };
/** The user's commit is dated, so every copy of the repository has the same base commit (its id is in the documents). */
const DATED = { GIT_AUTHOR_DATE: '2020-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2020-01-01T00:00:00Z' };

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', ...args], { cwd, encoding: 'utf8', env: { ...process.env, ...DATED } });

/** The greetings change with a second file, src/ledger.js, that waits for src/greet.js. */
async function twoEditScenario(file: string): Promise<void> {
  const scenario = parse(await fs.readFile(GREETINGS_SCENARIO, 'utf8')) as { replies: (Reply & { json?: { tasks?: unknown[] } })[] };
  const replies: Reply[] = [];
  for (const reply of scenario.replies) {
    if (reply.role === 'architect' && reply.action === 'write_change_tasks') {
      reply.json!.tasks!.push({ file: 'src/ledger.js', op: 'modify', from: null, description: 'Round the total to cents.', dependsOn: ['src/greet.js'] });
    }
    replies.push(reply);
    if (reply.role === 'engineer' && reply.action === 'review_edit') {
      replies.push(
        {
          role: 'engineer',
          action: 'edit_file',
          key: 'src/ledger.js',
          reply:
            '<<<<<<< SEARCH\n  return rows.reduce((sum, row) => sum + row.amount, 0) + (LEDGER_BODY_MARKER ? 0 : 1);\n=======\n  return Math.round(100 * rows.reduce((sum, row) => sum + row.amount, 0)) / 100 + (LEDGER_BODY_MARKER ? 0 : 1);\n>>>>>>> REPLACE\n',
        },
        { role: 'engineer', action: 'review_edit', key: 'src/ledger.js', json: { approved: true, issues: [] } },
      );
    }
  }
  await fs.writeFile(file, stringify({ ...scenario, replies }));
}

async function userRepository(dir: string): Promise<string> {
  const repo = path.join(dir, 'greetings');
  await fs.cp(CHANGE_FIXTURE, repo, { recursive: true });
  git(repo, 'init', '--quiet', '--initial-branch=main');
  git(repo, 'add', '.');
  git(repo, 'commit', '--quiet', '-m', 'greetings');
  return repo;
}

interface Facts {
  tree: string;
  subjects: string[];
}

const facts = (repo: string): Facts => ({
  tree: git(repo, 'rev-parse', `${BRANCH}^{tree}`).trim(),
  subjects: git(repo, 'log', '--reverse', '--format=%s', `main..${BRANCH}`).trim().split('\n'),
});

/** Starts the change and SIGKILLs it once `kill(stdout)` says so; resolves with the lines printed. */
function changeUntilKilled(repo: string, scenario: string, out: string, kill: (stdout: string) => boolean, env: Record<string, string> = {}) {
  return new Promise<{ signal: string | null; stdout: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'change', repo, '--llm', `scripted:${scenario}`, '--out', out], {
      cwd: ROOT,
      env: cleanEnv({ ...LATENCY, ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (!child.killed && kill(stdout)) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('close', (_code, signal) => resolve({ signal, stdout }));
  });
}

describe('sopworks change: kill -9 and resume', function () {
  this.timeout(600_000);
  let scenario: string;
  let reference: Facts;
  let lines: number;

  before(async () => {
    const dir = await tempDir('sopworks-change-kill-');
    scenario = path.join(dir, 'two-edits.yaml');
    await twoEditScenario(scenario);
    const repo = await userRepository(dir);
    const run = await sopworks(['change', repo, '--llm', `scripted:${scenario}`, '--out', path.join(dir, 'out')], { cwd: ROOT, env: LATENCY });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    reference = facts(repo);
    lines = run.stdout.split('\n').findIndex((line) => /^Outcome/.test(line));
    assert.deepEqual(reference.subjects, [
      'feat: Greetings in French (src/greet.js)',
      'feat: Greetings in French (src/ledger.js)',
      'test: Greetings in French',
    ]);
  });
  after(removeTempDirs);

  async function killAndResume(kill: (stdout: string) => boolean, env: Record<string, string> = {}): Promise<string> {
    const dir = await tempDir('sopworks-change-kill-');
    const repo = await userRepository(dir);
    const killed = await changeUntilKilled(repo, scenario, path.join(dir, 'out'), kill, env);
    assert.equal(killed.signal, 'SIGKILL', `the run was killed before it finished:\n${killed.stdout}`);
    const resumed = await sopworks(['resume', path.join(dir, 'out', 'greetings-let-greet-take-language-option')], { cwd: ROOT, env: LATENCY });
    assert.equal(resumed.code, 0, `killed after:\n${killed.stdout}\nresumed:\n${resumed.stdout}${resumed.stderr}`);
    assert.deepEqual(facts(repo), reference);
    return killed.stdout;
  }

  const afterLines = (n: number) => (stdout: string) => stdout.split('\n').length - 1 >= n;

  it("resumes a change killed between an edit's commit and the next edit", async () => {
    // The first file's Code is on the board and the second edit has been asked: resume must not apply the
    // first edit again to the file it already changed.
    const stdout = await killAndResume((out) => /Code → all msg-\d+ src\/greet\.js[\s\S]*edit_file src\/ledger\.js/.test(out));
    assert.doesNotMatch(stdout, /Code → all msg-\d+ src\/ledger\.js/, 'killed before the second file was done');
  });

  it('resumes a change killed inside a git commit', async () => {
    // The crash point kills the process itself, by SIGKILL, in the middle of the second commit (the branch holds three).
    await killAndResume(() => false, { SOPWORKS_CRASH_AT: 'git.commit:2' });
  });

  // One point per kind of progress line the two tests above do not cover (the asked call `…` and the
  // commit `●` are theirs), at its first line of that kind: a message posted (`⇢`, the map), a base test
  // run finished (`■`, its report not yet posted), a reply re-asked (`↻`, the first edit), and a test
  // round started (`▶`, round 1 in flight). Found by what the line says, never by its number, so none can
  // fall past the end of a shorter run. `SOPWORKS_KILL_EVERY_LINE=1` kills after every line instead.
  const kinds: [string, RegExp][] = [
    ['a message posted (the repository map)', /⇢ RepositoryMap/],
    ['a base test run finished, its report not yet posted', /■ tests base/],
    ['a reply re-asked (the first edit)', /↻ edit_file/],
    ['a test round started (round 1 in flight)', /▶ tests round 1/],
  ];
  if (process.env.SOPWORKS_KILL_EVERY_LINE === '1') {
    for (const n of Array.from({ length: 60 }, (_, i) => i + 3)) {
      it(`resumes a change killed after ${n} progress lines to the same branch`, async function () {
        if (n >= lines) this.skip();
        await killAndResume(afterLines(n));
      });
    }
  } else {
    for (const [kind, line] of kinds) {
      it(`resumes a change killed after ${kind} to the same branch`, async () => {
        const stdout = await killAndResume((out) => line.test(out));
        assert.match(stdout, line);
      });
    }
  }
});
