/**
 * Approval gates: artifacts held back until a person decides. Without a terminal and without --yes the
 * run stops with awaiting-approval (exit 4); `sopworks approve` records the decision and `resume`
 * continues; a rejection goes back to its role with the feedback. At a terminal the person is asked;
 * a Ctrl-C there stops the run as any first Ctrl-C does.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { readAppendLog } from '../../src/ground/files/index.ts';
import { demoTree } from '../helpers/demo-tree.ts';
import { sopworks } from '../helpers/in-process.ts';
import { BIN, DEMO } from '../helpers/paths.ts';
import { cleanEnv } from '../helpers/run-cli.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const exec = promisify(execFile);
const git = async (cwd: string, ...args: string[]) => (await exec('git', args, { cwd })).stdout.trim();
const boardOf = async (project: string) =>
  (await readAppendLog(path.join(project, '.sopworks', 'board.jsonl'))).records as { type: string; from: string; payload: Record<string, unknown> }[];

/**
 * The CLI in a real pseudo-terminal (`script`), as a person's shell would run it; `typed` is what the
 * person types at the nth "Approve it?" on the screen (1-based).
 */
function atTerminal(cwd: string, args: string[], typed: (nth: number) => string): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, BIN, ...args].join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd, env: cleanEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
  let screen = '';
  let answered = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    screen += chunk.toString();
    const asked = (screen.match(/Approve it\?/g) ?? []).length;
    if (asked > answered) child.stdin.write(typed(++answered));
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, screen })));
}

describe('approval gates', function () {
  this.timeout(180_000);
  after(removeTempDirs);

  it('stops with awaiting-approval (exit 4) until a person approves, and resumes to the same repository', async () => {
    const out = await tempDir();
    const project = path.join(out, 'wordfreq');
    const first = await sopworks(['run', '--llm', `scripted:${DEMO}`, '--out', out, '--approve', 'prd,design'], { cwd: out });
    assert.equal(first.code, 4, first.stdout + first.stderr);
    assert.match(first.stdout, /Outcome\s+awaiting-approval — waiting for a person to approve prd from product-manager/);
    assert.match(first.stdout, /Decide first: sopworks approve /);
    assert.doesNotMatch(await git(project, 'log', '--format=%s'), /product requirements/, 'the PRD is held back');

    for (const gate of ['prd', 'design']) {
      const approved = await sopworks(['approve', project], { cwd: out });
      assert.equal(approved.code, 0, approved.stderr);
      assert.match(approved.stdout, new RegExp(`Approved the ${gate} of `));
      const resumed = await sopworks(['resume', project], { cwd: out });
      assert.equal(resumed.code, gate === 'prd' ? 4 : 0, resumed.stdout + resumed.stderr);
    }
    // The tree a demo never stopped gives (made once per test process, test/helpers/demo-tree.ts).
    assert.equal(await git(project, 'rev-parse', 'HEAD^{tree}'), await demoTree());
    const approvals = (await boardOf(project)).filter((m) => m.type === 'Approval').map((m) => `${m.payload.gate}:${m.payload.approved}`);
    assert.deepEqual(approvals, ['prd:true', 'design:true']);
  });

  it('sends a rejection back to its role with the feedback, which revises it: the shipped demo shows it', async () => {
    // examples/wordfreq.yaml holds the revision a person's rejection asks for (README, "The demo").
    const out = await tempDir();
    const project = path.join(out, 'wordfreq');
    assert.equal((await sopworks(['run', '--llm', `scripted:${DEMO}`, '--out', out, '--approve', 'prd'], { cwd: out })).code, 4);

    const rejected = await sopworks(['approve', project, '--reject', 'Say what happens with an empty file'], { cwd: out });
    assert.equal(rejected.code, 0, rejected.stderr);
    assert.match(rejected.stdout, /Rejected the prd of product-manager/);
    const again = await sopworks(['resume', project], { cwd: out });
    assert.equal(again.code, 4, again.stdout + again.stderr);

    const { records } = await readAppendLog(path.join(project, '.sopworks', 'exchanges.jsonl'));
    const revisions = (records as { action: string; messages: { content: string }[] }[]).filter((r) => r.action === 'revise_prd');
    assert.equal(revisions.length, 2);
    assert.match(revisions[1]!.messages[1]!.content, /A person rejected it: Say what happens with an empty file/);

    assert.equal((await sopworks(['approve', project], { cwd: out })).code, 0);
    const done = await sopworks(['resume', project], { cwd: out });
    assert.equal(done.code, 0, done.stdout + done.stderr);
    assert.match(await fs.readFile(path.join(project, 'docs', 'prd.md'), 'utf8'), /An empty file counts no words and is not an error/);
  });

  it('asks the person at a terminal, and goes on with the answer', async () => {
    const out = await tempDir();
    const { code, screen } = await atTerminal(out, ['run', '--llm', `scripted:${DEMO}`, '--out', out, '--approve', 'prd,design'], (nth) =>
      nth === 1 ? 'y\r' : 'yes\r',
    );
    assert.equal(code, 0, screen);
    assert.match(screen, /product-manager asks for approval of the prd/);
    assert.match(screen, /# wordfreq — Product Requirements/, 'the person sees the artifact');
    assert.match(screen, /architect asks for approval of the design/);
    assert.match(screen, /Outcome\s+done/);
    const approvals = (await boardOf(path.join(out, 'wordfreq'))).filter((m) => m.type === 'Approval').map((m) => `${m.payload.gate}:${m.payload.approved}`);
    assert.deepEqual(approvals, ['prd:true', 'design:true']);
  });

  it('stops the run at a Ctrl-C typed at the question (waiting for the decision, nothing decided), and asks again on resume', async () => {
    const out = await tempDir();
    const project = path.join(out, 'wordfreq');
    const stopped = await atTerminal(out, ['run', '--llm', `scripted:${DEMO}`, '--out', out, '--approve', 'prd,design'], () => '\x03');
    assert.equal(stopped.code, 4, stopped.screen);
    assert.match(stopped.screen, /Stopping after the steps in flight/);
    assert.match(stopped.screen, /Outcome\s+awaiting-approval — waiting for a person to approve prd from product-manager/);
    assert.doesNotMatch(stopped.screen, /failed in step/);
    assert.equal((await boardOf(project)).filter((m) => m.type === 'Approval').length, 0, 'nothing was decided');
    assert.doesNotMatch(await git(project, 'log', '--format=%s'), /product requirements/, 'the PRD is still held back');

    const resumed = await atTerminal(out, ['resume', project], () => 'y\r');
    assert.equal(resumed.code, 0, resumed.screen);
    assert.match(resumed.screen, /product-manager asks for approval of the prd/, 'asked again');
    assert.match(resumed.screen, /Outcome\s+done/);
    const approvals = (await boardOf(project)).filter((m) => m.type === 'Approval').map((m) => `${m.payload.gate}:${m.payload.approved}`);
    assert.deepEqual(approvals, ['prd:true', 'design:true']);
  });

  it('approves everything with --yes, recording each decision on the board', async () => {
    const out = await tempDir();
    const result = await sopworks(['run', '--llm', `scripted:${DEMO}`, '--out', out, '--approve', 'prd,design,code,tests', '--yes'], { cwd: out });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const gates = (await boardOf(path.join(out, 'wordfreq'))).filter((m) => m.type === 'Approval').map((m) => m.payload.gate);
    assert.deepEqual([...new Set(gates)].sort(), ['code', 'design', 'prd', 'tests']);
    assert.equal(gates.filter((g) => g === 'code').length, 7, 'one decision per file');
  });

  it('names an unknown gate, and refuses to approve a run that waits for nothing', async () => {
    const out = await tempDir();
    const bad = await sopworks(['run', '--llm', `scripted:${DEMO}`, '--out', out, '--approve', 'prd,deploy'], { cwd: out });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--approve: unknown gate "deploy"; use a comma list of prd, design, code, tests/);
    assert.equal((await sopworks(['run', '--llm', `scripted:${DEMO}`, '--out', out], { cwd: out })).code, 0);
    const nothing = await sopworks(['approve', path.join(out, 'wordfreq')], { cwd: out });
    assert.equal(nothing.code, 2);
    assert.match(nothing.stderr, /Nothing in .* is waiting for approval/);
  });
});
