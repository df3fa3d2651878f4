/** Reading a run folder for review: read-only, tolerant of a run in progress, strict about damage. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseJsonLines } from '../../../../src/apps/review/json-lines.ts';
import { readRun } from '../../../../src/apps/review/read-run.ts';
import { SopworksError } from '../../../../src/ground/errors.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

const message = (seq: number, type: string, from: string, payload: unknown) =>
  JSON.stringify({ id: `msg-${String(seq).padStart(6, '0')}`, seq, type, from, to: 'all', causedBy: [], payload, createdAt: `2024-05-01T12:00:0${seq}.000Z` });
const requirement = message(1, 'Requirement', 'client', { spec: 'a word counter', project: 'wc' });
const outcome = message(2, 'Outcome', 'qa', { outcome: 'done', reason: 'all tests pass' });
const exchange = (attempt: number, ok: boolean) =>
  JSON.stringify({
    role: 'product-manager',
    action: 'write_prd',
    key: null,
    attempt,
    messages: [{ role: 'user', content: 'write it' }],
    reply: '{}',
    usage: { promptTokens: 10, completionTokens: 5 },
    ok,
    error: ok ? null : 'bad',
    ms: 3,
    at: '2024-05-01T12:00:00.000Z',
  });

async function makeRun(files: Record<string, string>): Promise<string> {
  const dir = path.join(await tempDir('sopworks-review-'), 'wc');
  for (const [name, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, '.sopworks', name)), { recursive: true });
    await fs.writeFile(path.join(dir, '.sopworks', name), content);
  }
  return dir;
}

function rejectsAsUsage(message: RegExp) {
  return (error: unknown) => {
    assert.ok(SopworksError.isInstance(error), `expected a SopworksError, got ${String(error)}`);
    assert.equal(error.code, 'USAGE');
    assert.match(error.message, message);
    assert.ok(error.hint, 'the error says what to do next');
    return true;
  };
}

describe('review: reading a run folder', () => {
  after(removeTempDirs);

  it('reads messages, exchanges and run.json, validating each payload against its type', async () => {
    const info = { spec: 'a word counter', project: 'wc', model: 'scripted:x', sops: '/s', roles: '/r', startedAt: '2024-05-01T12:00:00.000Z' };
    const dir = await makeRun({
      'board.jsonl': `${requirement}\n${outcome}\n`,
      'exchanges.jsonl': `${exchange(1, false)}\n${exchange(2, true)}\n`,
      'run.json': JSON.stringify(info),
    });
    const run = await readRun(dir);
    assert.deepEqual(
      run.messages.map((m) => m.type),
      ['Requirement', 'Outcome'],
    );
    assert.deepEqual(
      run.exchanges.map((e) => [e.index, e.exchange.attempt, e.exchange.ok]),
      [
        [0, 1, false],
        [1, 2, true],
      ],
    );
    assert.equal(run.info?.spec, 'a word counter');
    assert.equal(run.name, 'wc');
    assert.deepEqual(run.warnings, []);
  });

  it('reads a log being written as far as its last complete line, and never changes the file', async () => {
    const half = message(3, 'Outcome', 'qa', { outcome: 'done', reason: 'x' }).slice(0, 40);
    const text = `${requirement}\n${outcome}\n${half}`;
    const dir = await makeRun({ 'board.jsonl': text });
    const run = await readRun(dir);
    assert.equal(run.messages.length, 2);
    assert.deepEqual(run.warnings, [], 'a line still being written is not a problem');
    assert.equal(await fs.readFile(path.join(dir, '.sopworks', 'board.jsonl'), 'utf8'), text, 'the reader is read-only');
  });

  it('drops a torn last line with a warning, and refuses damage before it naming the line', async () => {
    const torn = await readRun(await makeRun({ 'board.jsonl': `${requirement}\n{"id":"msg-0\n` }));
    assert.equal(torn.messages.length, 1);
    assert.match(torn.warnings.join('\n'), /board\.jsonl:2: a torn last line/);

    const damaged = await makeRun({ 'board.jsonl': `${requirement}\nnot json\n${outcome}\n` });
    await assert.rejects(readRun(damaged), rejectsAsUsage(/board\.jsonl:2: the log is damaged/));
    assert.throws(() => parseJsonLines('{}\n{oops\n{}\n', 'f.jsonl'), /f\.jsonl:2/);
  });

  it('keeps a message whose payload does not match its schema, and says so', async () => {
    const bad = message(2, 'TestReport', 'qa', { round: 'one' });
    const run = await readRun(await makeRun({ 'board.jsonl': `${requirement}\n${bad}\n` }));
    assert.equal(run.messages.length, 2);
    assert.match(run.warnings[0]!, /board\.jsonl:2: the TestReport payload of msg-000002 does not match its schema/);
  });

  it('refuses a folder that is not a run, or not a folder, with what to do next', async () => {
    const plain = await tempDir('sopworks-plain-');
    await assert.rejects(readRun(plain), rejectsAsUsage(/is not a sopworks run: it has no \.sopworks\/board\.jsonl or \.sopworks\/run\.json/));
    await assert.rejects(readRun(path.join(plain, 'missing')), rejectsAsUsage(/is not a folder/));
  });

  it('reads role states from .sopworks/roles/<role>.json, skipping temporary files and warning about bad ones', async () => {
    const dir = await makeRun({
      'board.jsonl': `${requirement}\n`,
      'roles/engineer.json': JSON.stringify({
        role: 'engineer',
        state: 'writing',
        status: 'active',
        updatedAt: '2024-05-01T12:00:00.000Z',
        snapshot: { value: 'writing' },
      }),
      'roles/qa.json.tmp': '{"role": "qa", "sta',
      'roles/architect.json': JSON.stringify({ role: 'architect' }),
    });
    const run = await readRun(dir);
    assert.deepEqual(
      run.roleStates.map((s) => [s.role, s.state, s.status]),
      [['engineer', 'writing', 'active']],
    );
    assert.equal(run.warnings.length, 1);
    assert.match(run.warnings[0]!, /architect\.json: state: .*that role's state is not shown/);
  });

  it('knows a run is in progress while the process named in its lock is alive', async () => {
    // Another process, alive while it is read (this process's own pid in a lock it does not hold is stale).
    const other = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      const live = await readRun(await makeRun({ 'board.jsonl': `${requirement}\n`, lock: `${other.pid}\n` }));
      assert.equal(live.runningPid, other.pid);
    } finally {
      other.kill('SIGKILL');
    }
    const ownStale = await readRun(await makeRun({ 'board.jsonl': `${requirement}\n`, lock: `${process.pid}\n` }));
    assert.equal(ownStale.runningPid, null);
    const stale = await readRun(await makeRun({ 'board.jsonl': `${requirement}\n`, lock: '999999999\n' }));
    assert.equal(stale.runningPid, null);
    const none = await readRun(await makeRun({ 'board.jsonl': `${requirement}\n` }));
    assert.equal(none.runningPid, null);
  });
});
