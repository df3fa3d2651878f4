/**
 * `--clarify`: the Product Manager asks the person a few questions before the PRD. Without a terminal
 * the run stops awaiting the answers (exit 4) instead of hanging; at a terminal each question is asked
 * and read; the answers go on the board and into write_prd's prompt. Killed while the questions are on
 * the screen, or stopped there by Ctrl-C (the run waits for the answers, not failed), a resume asks the model nothing twice. Runs the real CLI on a scripted scenario
 * (test/fixtures/clarify/), up to the PRD (`--until prd`). The workbench's form is in review-browser.test.ts.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { readAppendLog } from '../../src/ground/files/index.ts';
import { changeSetUp } from '../helpers/change-repo.ts';
import { sopworks } from '../helpers/in-process.ts';
import { BIN, DEMO, DEMO_CHANGE, ROOT, SOPS } from '../helpers/paths.ts';
import { cleanEnv } from '../helpers/run-cli.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const SCENARIO = path.join(ROOT, 'test', 'fixtures', 'clarify', 'wordfreq-clarify.yaml');
const CLARIFY = ['--llm', `scripted:${SCENARIO}`, '--clarify', '--until', 'prd'];

type Record = { type: string; from: string; to?: string; payload: { answers: { question: string; answer: string }[] } };
const boardOf = async (project: string) => (await readAppendLog(path.join(project, '.sopworks', 'board.jsonl'))).records as Record[];
const exchangesOf = async (project: string) =>
  (await readAppendLog(path.join(project, '.sopworks', 'exchanges.jsonl'))).records as { action: string; messages: { content: string }[] }[];
const callsOf = async (project: string, action: string) => (await exchangesOf(project)).filter((r) => r.action === action);

/**
 * Runs the CLI in a real pseudo-terminal (`script`), as a person's shell would; `respond` is shown the
 * screen on every output and may type a line. `killAt`: SIGKILL the CLI once the screen matches it.
 */
function atTerminal(
  args: string[],
  cwd: string,
  respond: (screen: string) => string | null,
  killAt?: RegExp,
): Promise<{ code: number | null; screen: string }> {
  // `exec`: script runs the command through /bin/sh, which (dash) would otherwise stay between script and
  // the CLI, so that killing script's child would kill the shell and leave the CLI running with its lock.
  const command = `exec ${[process.execPath, BIN, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ')}`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd, env: cleanEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
  let screen = '';
  let killing: Promise<void> | null = null;
  child.stdout.on('data', (chunk: Buffer) => {
    screen += chunk.toString();
    if (killAt && !killing && killAt.test(screen)) {
      // The CLI is script's child, in a session of its own: killed by its pid, as `kill -9` would.
      killing = childrenOf(child.pid!).then((pids) => {
        assert.equal(pids.length, 1, `script runs the CLI itself, not through a shell: its children are ${pids.join(', ')}`);
        for (const pid of pids) process.kill(pid, 'SIGKILL');
      });
      return;
    }
    const line = respond(screen);
    if (line !== null) child.stdin.write(`${line}\r`);
  });
  return new Promise((resolve, reject) =>
    child.on('close', (code) => {
      Promise.resolve(killing).then(() => resolve({ code, screen }), reject);
    }),
  );
}

/** The processes whose parent is `parent` (from /proc/<pid>/stat: its fourth field). */
async function childrenOf(parent: number): Promise<number[]> {
  const pids = (await fs.readdir('/proc')).filter((name) => /^\d+$/.test(name));
  const stats = await Promise.all(pids.map((pid) => fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '')));
  // The command name (second field) is in parentheses and may hold spaces: the fields after it are read.
  return pids.filter((_, i) => Number(stats[i]!.slice(stats[i]!.lastIndexOf(')') + 2).split(' ')[1]) === parent).map(Number);
}

/** Types each answer once its question's prompt is on the screen. */
function answering(answers: string[]): (screen: string) => string | null {
  let given = 0;
  return (screen) => {
    // readline's prompt, after the cursor moves it writes to the start of the line.
    const prompts = (screen.match(/\n(?:\x1b\[[0-9;]*[A-Za-z])*> /g) ?? []).length;
    return prompts > given && given < answers.length ? answers[given++]! : null;
  };
}

describe('--clarify: questions before the PRD or the change request', function () {
  this.timeout(120_000);
  after(removeTempDirs);

  it('stops awaiting the answers without a terminal; killed while asking, then answered at a terminal, the PRD takes them in', async () => {
    const out = await tempDir();
    const project = path.join(out, 'wordfreq');
    const first = await sopworks(['run', ...CLARIFY, '--out', out], { cwd: out });
    assert.equal(first.code, 4, first.stdout + first.stderr);
    assert.match(first.stdout, /awaiting-approval — waiting for a person to answer 2 questions from product-manager/);
    // Headless, the questions are printed with the command that answers them.
    assert.match(
      first.stdout,
      /\nproduct-manager asks 2 questions before it writes:\n {2}1\. Should it read standard input when no file is given\?\n {5}\(decides whether a file argument is required\)\n {2}2\. Which output format/,
    );
    assert.match(first.stdout, /Answer with: sopworks answer wordfreq "<answer 1>" "<answer 2>" {2}\("" for no preference\)/);
    assert.match(first.stdout, /Or answer on the run's page \(sopworks serve wordfreq\), or resume it at a terminal/);
    assert.doesNotMatch(first.stdout, /sopworks approve/, 'nothing to approve');
    const status = await sopworks(['status', project], { cwd: out });
    assert.match(status.stdout, /waits on: answers to 2 questions of product-manager — sopworks answer .*wordfreq shows them and how to answer/);
    const approve = await sopworks(['approve', project], { cwd: out });
    assert.equal(approve.code, 2);
    assert.match(approve.stderr, /waits for answers to questions: `sopworks answer .*wordfreq` prints them and how to answer/);

    // Killed while the first question is on the screen: nothing is recorded, nothing asked of the model again.
    const killed = await atTerminal(['resume', project, '--until', 'prd'], out, () => null, /Should it read standard input/);
    assert.notEqual(killed.code, 0);
    assert.equal((await boardOf(project)).filter((m) => m.type === 'Answers').length, 0);
    // Ctrl-C at the question (the terminal is in raw mode: readline reads the key): the run stops as at
    // any first Ctrl-C, not failed: nothing is recorded, and it waits for the answers again.
    let pressed = false;
    const ctrlC = (screen: string) => {
      if (pressed || !/Should it read standard input/.test(screen)) return null;
      pressed = true;
      return '\x03';
    };
    const cancelled = await atTerminal(['resume', project, '--until', 'prd'], out, ctrlC);
    assert.equal(cancelled.code, 4, cancelled.screen);
    assert.match(cancelled.screen, /Stopping after the steps in flight/);
    assert.match(cancelled.screen, /Outcome\s+awaiting-approval — waiting for a person to answer 2 questions from product-manager/);
    assert.doesNotMatch(cancelled.screen, /failed in step/);
    assert.equal((await boardOf(project)).filter((m) => m.type === 'Answers').length, 0, 'nothing answered');

    const answered = await atTerminal(['resume', project, '--until', 'prd'], out, answering(['read standard input too', '']));
    assert.equal(answered.code, 5, answered.screen);
    assert.match(answered.screen, /product-manager has 2 questions before it writes/);
    assert.match(answered.screen, /1\. Should it read standard input when no file is given\?\s+decides whether a file argument is required/);
    assert.match(answered.screen, /2\. Which output format do you want: a table, or JSON\?/);
    assert.match(answered.screen, /Outcome\s+paused/);

    const answers = (await boardOf(project)).filter((m) => m.type === 'Answers');
    assert.deepEqual(
      answers.map((m) => [m.from, m.to, m.payload.answers.map((a) => a.answer)]),
      [['client', 'product-manager', ['read standard input too', '']]],
    );
    assert.equal((await callsOf(project, 'clarify')).length, 1, 'the questions were asked of the model once, across four processes');
    const [prd] = await callsOf(project, 'write_prd');
    assert.match(
      prd!.messages[1]!.content,
      /## The client's answers to your questions\n- Should it read standard input when no file is given\?\n {2}Answer: read standard input too/,
    );
    assert.match(prd!.messages[1]!.content, /Which output format do you want: a table, or JSON\?\n {2}Answer: no preference/);
    assert.match(await fs.readFile(path.join(project, 'docs', 'prd.md'), 'utf8'), /Read standard input when no file is given/);
  });

  it('the shipped scenarios show it: the demo asks two questions at a terminal and builds its repository, its change asks one', async () => {
    const out = await tempDir();
    const plain = await sopworks(['run', '--llm', `scripted:${DEMO}`, '--out', out, '--name', 'plain'], { cwd: out });
    assert.equal(plain.code, 0, plain.stdout + plain.stderr);
    const asked = await atTerminal(['run', '--llm', `scripted:${DEMO}`, '--clarify', '--out', out], out, answering(['yes, one word', '']));
    assert.equal(asked.code, 0, asked.screen);
    assert.match(asked.screen, /1\. Should 'The', 'the' and 'the,' count as one word\?\s+decides how words are normalised/);
    assert.match(asked.screen, /Outcome\s+done/);
    const project = path.join(out, 'wordfreq');
    assert.deepEqual(
      (await boardOf(project)).filter((m) => m.type === 'Answers').map((m) => m.payload.answers.map((a) => a.answer)),
      [['yes, one word', '']],
    );
    const tree = (dir: string) => execFileSync('git', ['rev-parse', 'HEAD^{tree}'], { cwd: dir, encoding: 'utf8' });
    assert.equal(tree(project), tree(path.join(out, 'plain')), 'the scripted PRD is the same: the answers went into its prompt');

    const change = await atTerminal(['change', project, '--llm', `scripted:${DEMO_CHANGE}`, '--clarify', '--out', out], out, answering(['yes']));
    assert.equal(change.code, 0, change.screen);
    assert.match(change.screen, /1\. With --json, should --top still limit the entries\?/);
    assert.match(change.screen, /Outcome\s+done/);
  });

  it('headless all the way: the --json summary carries the questions, `sopworks answer` records the answers, resume goes on with them', async () => {
    const out = await tempDir();
    const project = path.join(out, 'wordfreq');
    const first = await sopworks(['run', ...CLARIFY, '--json', '--out', out], { cwd: out });
    assert.equal(first.code, 4, first.stderr);
    const summary = JSON.parse(first.stdout.trim().split('\n').at(-1)!) as { type: string; questions: unknown; next: string[] };
    assert.equal(summary.type, 'summary');
    assert.deepEqual(summary.questions, [
      {
        role: 'product-manager',
        round: 0,
        questions: [
          { question: 'Should it read standard input when no file is given?', why: 'decides whether a file argument is required' },
          { question: 'Which output format do you want: a table, or JSON?', why: null },
        ],
      },
    ]);
    assert.equal(summary.next[0], 'sopworks answer wordfreq "<answer 1>" "<answer 2>"');
    assert.match(first.stderr, /product-manager asks 2 questions before it writes:/, 'the person reads them on stderr');

    const shown = await sopworks(['answer', project], { cwd: out });
    assert.equal(shown.code, 4, shown.stderr);
    assert.match(shown.stdout, /^product-manager asks 2 questions before it writes:\n {2}1\. Should it read standard input when no file is given\?/);
    const short = await sopworks(['answer', project, 'only one'], { cwd: out });
    assert.equal(short.code, 2);
    assert.match(short.stderr, /product-manager asked 2 question\(s\), and 1 answer\(s\) came\.\n {2}Give one answer per question, in order/);
    assert.equal((await boardOf(project)).filter((m) => m.type === 'Answers').length, 0, 'nothing recorded from a wrong count');

    const given = await sopworks(['answer', project, 'read standard input too', ''], { cwd: out });
    assert.equal(given.code, 0, given.stderr);
    assert.equal(given.stdout.trim(), 'Recorded the answers to 2 questions of product-manager.\nContinue with: sopworks resume wordfreq');
    const again = await sopworks(['answer', project, 'x', 'y'], { cwd: out });
    assert.equal(again.code, 2);
    assert.match(again.stderr, /Nothing in wordfreq waits for answers\.\n {2}If they were answered already, `sopworks resume wordfreq` goes on with them\./);

    // No --until given again: the run's own (--until prd, in run.json) holds until it has stopped there.
    const resumed = await sopworks(['resume', project], { cwd: out });
    assert.equal(resumed.code, 5, resumed.stdout + resumed.stderr);
    assert.match(resumed.stdout, /Outcome\s+paused — stopped at prd \(architect\), as --until prd asked/);
    assert.equal((await callsOf(project, 'write_design')).length, 0, 'the Architect did not start: no money spent past the PRD');
    assert.deepEqual(
      (await boardOf(project)).filter((m) => m.type === 'Answers').map((m) => [m.from, m.payload.answers.map((a) => a.answer)]),
      [['client', ['read standard input too', '']]],
    );
    const [prd] = await callsOf(project, 'write_prd');
    assert.match(prd!.messages[1]!.content, /Should it read standard input when no file is given\?\n {2}Answer: read standard input too/);
    assert.equal((await callsOf(project, 'clarify')).length, 1, 'the model was asked its questions once');
  });

  it('with --yes at a terminal, asks nothing there and stops awaiting the answers', async () => {
    const out = await tempDir();
    const run = await atTerminal(['run', ...CLARIFY, '--yes', '--out', out], out, () => 'typed by nobody');
    assert.equal(run.code, 4, run.screen);
    assert.doesNotMatch(run.screen, /has 2 questions before it writes|\n> /, 'nothing was asked there');
    assert.match(run.screen, /product-manager asks 2 questions before it writes:/, 'the questions are listed, with how to answer them');
    assert.match(run.screen, /waiting for a person to answer 2 questions from product-manager/);
  });

  it('asks the person nothing when the model finds the spec clear, the model nothing without --clarify, and refuses --clarify to a company that cannot ask', async () => {
    const scenario = parse(await fs.readFile(SCENARIO, 'utf8')) as { replies: { action: string; json: unknown }[] };
    scenario.replies[0]!.json = { questions: [] };
    const out = await tempDir();
    await fs.writeFile(path.join(out, 'clear.yaml'), stringify(scenario));
    const clear = await sopworks(['run', '--llm', 'scripted:clear.yaml', '--clarify', '--until', 'prd', '--out', out], { cwd: out });
    assert.equal(clear.code, 5, clear.stdout + clear.stderr);
    assert.equal((await boardOf(path.join(out, 'wordfreq'))).filter((m) => m.type === 'Answers').length, 0);

    const plain = await sopworks(['run', '--llm', `scripted:${SCENARIO}`, '--until', 'prd', '--out', out, '--name', 'plain'], { cwd: out });
    assert.equal(plain.code, 5, plain.stdout + plain.stderr);
    assert.deepEqual(
      (await exchangesOf(path.join(out, 'plain'))).map((r) => r.action),
      ['write_prd', 'review_prd'],
    );

    // A company whose Product Manager has no clarify step: refused before anything is written.
    const sops = path.join(out, 'sops');
    await fs.cp(SOPS, sops, { recursive: true });
    const pm = path.join(sops, 'product-manager.yaml');
    await fs.writeFile(
      pm,
      (await fs.readFile(pm, 'utf8')).replace(
        'src: clarify\n      input: { action: clarify, with: [spec], max: 3 }',
        'src: stopAt\n      input: { point: asked }',
      ),
    );
    const refused = await sopworks(['run', ...CLARIFY, '--sops', sops, '--out', out, '--name', 'refused'], { cwd: out });
    assert.equal(refused.code, 2, refused.stdout + refused.stderr);
    assert.match(refused.stderr, /--clarify: no SOP of this company asks the person questions \(it has no clarify step\)/);
    await assert.rejects(fs.access(path.join(out, 'refused')));
  });

  it('change --clarify: asks with the repository map in view, waits without a terminal, and the change request takes the answers', async () => {
    const question = { question: 'Should an unknown language fall back to English, or be refused?', why: 'decides whether greet can throw' };
    const setUp = await changeSetUp((replies) => [{ role: 'product-manager', action: 'clarify_change', json: { questions: [question] } }, ...replies]);
    const first = await setUp.change(['--clarify']);
    assert.equal(first.code, 4, first.stdout + first.stderr);
    assert.match(first.stdout, /awaiting-approval — waiting for a person to answer a question from product-manager/);
    const [asked] = await callsOf(setUp.worktree, 'clarify_change');
    assert.match(asked!.messages[1]!.content, /Before you write the change request/);
    assert.match(asked!.messages[1]!.content, /src\/greet\.js/, 'the question is asked with the map in view');
    assert.equal((await callsOf(setUp.worktree, 'write_change_request')).length, 0, 'nothing written before the answer');

    const answered = await atTerminal(['resume', setUp.worktree], setUp.dir, answering(['refuse it, naming the languages']));
    assert.equal(answered.code, 0, answered.screen);
    assert.match(answered.screen, /1\. Should an unknown language fall back to English, or be refused\?/);
    assert.match(answered.screen, /Outcome\s+done/);
    assert.deepEqual(
      (await boardOf(setUp.worktree)).filter((m) => m.type === 'Answers').map((m) => m.payload.answers.map((a) => a.answer)),
      [['refuse it, naming the languages']],
    );
    assert.equal((await callsOf(setUp.worktree, 'clarify_change')).length, 1, 'the model was asked the questions once');
    const [request] = await callsOf(setUp.worktree, 'write_change_request');
    assert.match(
      request!.messages[1]!.content,
      /## The client's answers to your questions\n- Should an unknown language fall back to English, or be refused\?\n {2}Answer: refuse it, naming the languages/,
    );
    setUp.untouched();
  });
});
