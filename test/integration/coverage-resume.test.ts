/**
 * The coverage matrix is rebuilt identically on resume and from a recorded run (issue 40, Must 6): the
 * demo — whose first test round leaves criteria unproven and whose second proves them all — killed as its
 * test round is reported (before its matrix is built) and as its matrix is posted (before or after its
 * commit), then resumed, and recorded then replayed, each leaves the same docs/test-reports/coverage.md,
 * the same history of it (one version a round) and the same Coverage messages as an uninterrupted run.
 * The killed runs are child processes; the reference, the resumes and the recording run in process.
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
const git = async (cwd: string, ...args: string[]) => (await exec('git', args, { cwd, maxBuffer: 16 * 1024 * 1024 })).stdout;
const LATENCY = { SOPWORKS_SCRIPTED_LATENCY_MS: '25' };
const MATRIX = 'docs/test-reports/coverage.md';

interface Matrix {
  /** The matrix as the run left it. */
  file: string;
  /** Every version of it committed, oldest first: one a test round. */
  versions: string[];
  /** The Coverage messages of the board, in order. */
  board: string[];
}

async function matrixOf(project: string): Promise<Matrix> {
  const commits = (await git(project, 'log', '--reverse', '--format=%H', '--', MATRIX)).trim().split('\n');
  const { records } = await readAppendLog(path.join(project, '.sopworks', 'board.jsonl'));
  return {
    file: await fs.readFile(path.join(project, MATRIX), 'utf8'),
    versions: await Promise.all(commits.map((c) => git(project, 'show', `${c}:${MATRIX}`))),
    board: (records as { id: string; type: string; payload: unknown }[]).filter((m) => m.type === 'Coverage').map((m) => JSON.stringify([m.id, m.payload])),
  };
}

/** Where a run is killed: once the `nth` progress line matching `line` is printed, or by the run itself at a crash point. */
type KillPoint = { line: RegExp; nth: number } | { crashAt: string };

/** Starts the demo and SIGKILLs it at `kill`. */
function killedAt(out: string, kill: KillPoint): Promise<{ signal: string | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'run', '--llm', `scripted:${DEMO}`, '--out', out], {
      cwd: out,
      env: cleanEnv({ ...LATENCY, ...('crashAt' in kill ? { SOPWORKS_CRASH_AT: kill.crashAt } : {}) }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if ('line' in kill && (stdout.match(new RegExp(kill.line.source, 'gm')) ?? []).length >= kill.nth) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('close', (_code, signal) => resolve({ signal, stdout }));
  });
}

describe('the coverage matrix, rebuilt on resume and from a recorded run', function () {
  this.timeout(300_000);
  let reference: Matrix;
  let referenceOut: string;
  /** The board's records of the uninterrupted run, in order. */
  let referenceBoard: { type: string }[];

  before(async () => {
    referenceOut = await tempDir('sopworks-coverage-');
    const run = await sopworks(['run', '--llm', `scripted:${DEMO}`, '--out', referenceOut], { cwd: referenceOut, env: LATENCY });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    reference = await matrixOf(path.join(referenceOut, 'wordfreq'));
    referenceBoard = (await readAppendLog(path.join(referenceOut, 'wordfreq', '.sopworks', 'board.jsonl'))).records as { type: string }[];
    // The demo's matrix changes between its rounds: a resume that rebuilt it from the wrong round would show.
    assert.ok(reference.versions.length >= 2 && new Set(reference.versions).size === reference.versions.length, reference.versions.join('\n---\n'));
    assert.equal(reference.board.length, reference.versions.length, 'one matrix a round, each committed');
    assert.equal(reference.file, reference.versions.at(-1));
  });
  after(removeTempDirs);

  // The last matrix is posted just before the run ends: a kill sent on its progress line can arrive after
  // the run has finished, so that one is the run's own crash point, on writing the board's next record
  // (half of it written: the resume drops that torn line and posts it again).
  const afterLastMatrix = (): KillPoint => {
    const next = referenceBoard.map((m) => m.type).lastIndexOf('Coverage') + 1;
    assert.ok(next > 0 && next < referenceBoard.length, 'the uninterrupted run posts a message after its last matrix');
    return { crashAt: `board.append:${next + 1}` };
  };
  const kills: { what: string; at: () => KillPoint }[] = [
    { what: 'as its first test round is reported, before the matrix of that round is built', at: () => ({ line: /⇢ TestReport → /, nth: 1 }) },
    { what: 'as the matrix of its first round is posted', at: () => ({ line: /⇢ Coverage → /, nth: 1 }) },
    { what: 'as the matrix of its last round is posted', at: afterLastMatrix },
  ];
  for (const kill of kills) {
    it(`killed ${kill.what}, resumes to the same matrix, each version of it the same`, async () => {
      const out = await tempDir('sopworks-coverage-');
      const point = kill.at();
      const killed = await killedAt(out, point);
      assert.equal(killed.signal, 'SIGKILL', `the run was killed before it finished:\n${killed.stdout}`);
      const project = path.join(out, 'wordfreq');
      const stopped = await readAppendLog(path.join(project, '.sopworks', 'board.jsonl'));
      if ('crashAt' in point) assert.equal((stopped.records.at(-1) as { type: string }).type, 'Coverage', 'killed right after the last matrix was posted');
      const resumed = await sopworks(['resume', project], { cwd: out, env: LATENCY });
      assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
      assert.deepEqual(await matrixOf(project), reference);
    });
  }

  it('recorded, then replayed from the recording, builds the same matrix', async () => {
    const out = await tempDir('sopworks-coverage-');
    const recording = path.join(out, 'recorded.yaml');
    const recorded = await sopworks(['run', '--llm', `scripted:${DEMO}`, '--record', recording, '--out', path.join(out, 'first')], { cwd: out });
    assert.equal(recorded.code, 0, recorded.stdout + recorded.stderr);
    const replayed = await sopworks(['run', '--llm', `scripted:${recording}`, '--out', path.join(out, 'replay')], { cwd: out });
    assert.equal(replayed.code, 0, replayed.stdout + replayed.stderr);
    for (const project of [path.join(out, 'first', 'wordfreq'), path.join(out, 'replay', 'wordfreq')]) {
      const matrix = await matrixOf(project);
      assert.equal(matrix.file, reference.file, project);
      assert.deepEqual(matrix.versions, reference.versions, project);
    }
  });
});
