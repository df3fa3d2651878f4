/**
 * The run loop on a memory store, without a disk, a model or a repository: handed a vocabulary of the
 * engine's own steps and a message type of the test's, it runs a small company to its outcome, and a run
 * stopped at once, or stopped by a step that failed, resumes from the store to the same board — nothing
 * posted twice.
 */
import assert from 'node:assert/strict';
import { z } from 'zod';
import { defineMessage, MessageBoard, runMessages } from '../../../../src/engine/board/index.ts';
import type { CompanyDefinition } from '../../../../src/engine/run/load-company.ts';
import { MemoryRunStore } from '../../../../src/engine/run/memory-run-store.ts';
import { publishOnce } from '../../../../src/engine/run/publish-once.ts';
import type { LoopEvent } from '../../../../src/engine/run/run-events.ts';
import { type RunApprovals, RunLoop, type SharedPorts, type StopSignals } from '../../../../src/engine/run/run-loop.ts';
import type { RunStore } from '../../../../src/engine/run/run-store.ts';
import { WorkInFlight } from '../../../../src/engine/run/work-in-flight.ts';
import { resolveSop } from '../../../../src/engine/sop/index.ts';
import { conclude, project, publish, receive, SopFile, spec, type View, type Vocabulary } from '../../../../src/engine/steps/index.ts';
import { DEFAULT_SANDBOX_SETTINGS } from '../../../../src/host/sandbox/index.ts';

const Note = defineMessage({ schema: z.object({ text: z.string().min(1) }).strict(), description: 'A note one role leaves another.' });

/** Only the engine's own steps, and the one view the closer may name (`summary`) when the test hands it. */
const vocabularyWith = (views: Record<string, View>): Vocabulary => ({
  steps: { publish, conclude },
  actions: { receive },
  guards: {},
  views: { spec, project, ...views },
  messages: { ...runMessages, Note },
});
const summary: View = { description: 'What the notes say.', read: ({ board }) => board.all<{ text: string }>('Note').map((m) => m.payload.text) };

const profile = (id: string) => ({ id, email: `${id}@sopworks.local`, name: id, title: id, goal: 'test', constraints: [] });

/** A writer that notes the spec, and a closer that ends the run on the note, appending the `summary` view. */
function company(vocabulary: Vocabulary, closerWatches: string[]): CompanyDefinition {
  const writer = SopFile.parse({
    id: 'writer',
    initial: 'idle',
    states: {
      idle: { on: { Requirement: { target: 'noting', actions: 'receive' } } },
      noting: { invoke: { src: 'publish', input: { type: 'Note', fields: { text: 'spec' } }, onDone: 'idle' } },
    },
  });
  const closer = SopFile.parse({
    id: 'closer',
    initial: 'idle',
    states: {
      idle: { on: { Note: { target: 'closing', actions: 'receive' } } },
      closing: { invoke: { src: 'conclude', input: { outcome: 'done', reason: 'noted', detail: 'summary' }, onDone: 'closed' } },
      closed: { type: 'final' },
    },
  });
  const role = (sop: SopFile, watches: string[]) => ({
    id: sop.id,
    watches,
    settings: {},
    sop: resolveSop(sop, null, vocabulary),
    sopFile: `${sop.id}.yaml`,
    profile: profile(sop.id),
    subSops: {},
  });
  return { name: 'tiny', sopsDir: 'memory', rolesDir: 'memory', roles: [role(writer, ['Requirement']), role(closer, closerWatches)], vocabulary, warnings: [] };
}

/** One run of the loop on the store: a board restored from it, ports that reach nothing outside. */
async function runOnce(
  store: RunStore,
  vocabulary: Vocabulary,
  options: { resuming: boolean; stop?: (board: MessageBoard) => StopSignals; closerWatches?: string[] },
) {
  const opened = await store.openBoard();
  const board = MessageBoard.restore(opened.records, opened.log, 'memory', { types: vocabulary.messages });
  const workInFlight = new WorkInFlight();
  const ports: SharedPorts = {
    board,
    publish: publishOnce(board, workInFlight),
    model: { ask: async () => assert.fail('no step of this company asks a model') },
    repository: { root: '/nowhere', readFile: async () => null, withCommitsHeld: (work) => work(), filesOnDisk: async () => {} },
    policy: {
      source: 'test',
      writeRefusals: () => [],
      commandRefusal: () => null,
      writeRule: () => ({ text: 'any role may write anything', satisfiable: true }),
      runRule: () => ({ text: 'any role may run anything', satisfiable: true }),
      dependencies: { install: false, network: false, scripts: false, by: [], registries: { npm: null, pip: null } },
    },
    sandbox: DEFAULT_SANDBOX_SETTINGS,
    documents: { markdown: (value) => JSON.stringify(value), line: (value) => (Array.isArray(value) ? value.join('; ') : String(value)) },
  };
  const approvals: RunApprovals = {
    waiting: [],
    notify: () => {},
    gated: () => false,
    decide: async () => ({ approved: true, feedback: null }),
    clarifying: () => false,
    answer: async () => [],
  };
  const events: LoopEvent[] = [];
  const loop = new RunLoop({
    company: company(vocabulary, options.closerWatches ?? ['Note']),
    board,
    ports,
    approvals,
    modelLabel: 'none',
    projectDir: '/nowhere/tiny',
    roleStore: store.roles,
    emit: (event) => events.push(event),
    requirement: { spec: 'a word counter', project: 'tiny' },
    resuming: options.resuming,
    stop: options.stop?.(board) ?? {},
    concurrency: 1,
    engineers: 1,
    workInFlight,
    commitFault: { first: null, notify: () => {} },
  });
  const conclusion = await loop.run();
  await Promise.all([store.roles.settled(), board.close()]);
  return { conclusion, board, events };
}

const types = (board: MessageBoard) => board.list().map((m) => `${m.from}:${m.type}`);

describe('the run loop on a memory store', () => {
  it("runs a company of the engine's own steps to its outcome, posting each message once and saving each role", async () => {
    const store = new MemoryRunStore();
    const { conclusion, board, events } = await runOnce(store, vocabularyWith({ summary }), { resuming: false });
    assert.deepEqual(conclusion, { outcome: 'done', reason: 'noted: a word counter' });
    assert.deepEqual(types(board), ['client:Requirement', 'writer:Note', 'closer:Outcome']);
    assert.deepEqual(
      events.filter((e) => e.kind === 'start'),
      [{ kind: 'start', project: 'tiny', projectDir: '/nowhere/tiny', model: 'none', roles: ['writer', 'closer'] }],
    );
    assert.equal((await store.roles.load('closer'))?.state, 'closed');
    assert.deepEqual((await store.roles.load('writer'))?.delivered, [1]);
  });

  it('resumes a run stopped at once from the store: the roles are restored and nothing is posted twice', async () => {
    const store = new MemoryRunStore();
    const hard = new AbortController();
    const first = await runOnce(store, vocabularyWith({ summary }), {
      resuming: false,
      // Stopped the moment the note is on the board, before the closer can take it.
      stop: (board) => {
        board.subscribe((message) => message.type === 'Note' && hard.abort());
        return { hard: hard.signal };
      },
    });
    assert.equal(first.conclusion.outcome, 'interrupted');
    assert.deepEqual(types(first.board), ['client:Requirement', 'writer:Note']);
    const second = await runOnce(store, vocabularyWith({ summary }), { resuming: true });
    assert.deepEqual(second.conclusion, { outcome: 'done', reason: 'noted: a word counter' });
    assert.deepEqual(types(second.board), ['client:Requirement', 'writer:Note', 'closer:Outcome']);
  });

  it('ends failed, naming the role and the step, when a step fails; resumed with what it lacked, it asks the step again and ends done', async () => {
    const store = new MemoryRunStore();
    // Without the `summary` view the closer's conclude cannot read its detail.
    const failed = await runOnce(store, vocabularyWith({}), { resuming: false });
    assert.equal(failed.conclusion.outcome, 'failed');
    assert.match(failed.conclusion.reason, /^closer failed in step "closing": "summary" is neither a view/);
    assert.deepEqual(types(failed.board), ['client:Requirement', 'writer:Note']);
    assert.equal((await store.roles.load('closer'))?.status, 'error');
    const resumed = await runOnce(store, vocabularyWith({ summary }), { resuming: true });
    assert.deepEqual(resumed.conclusion, { outcome: 'done', reason: 'noted: a word counter' });
    assert.deepEqual(types(resumed.board), ['client:Requirement', 'writer:Note', 'closer:Outcome']);
  });

  it('ends failed, saying where it stalled, when no role is at work and no outcome came', async () => {
    const { conclusion, board } = await runOnce(new MemoryRunStore(), vocabularyWith({ summary }), { resuming: false, closerWatches: ['Requirement'] });
    assert.deepEqual(types(board), ['client:Requirement', 'writer:Note']);
    assert.deepEqual(conclusion, {
      outcome: 'failed',
      reason: 'the company stalled: no role is at work and no outcome was reached (closer has Requirement msg-000001 waiting in state "idle")',
    });
  });
});
