/**
 * Starting or resuming a run: the entry points of a company's work. A run takes its repository's lock,
 * opens its state (open-run.ts), runs the roles until an outcome (run-loop.ts, decided by
 * decide-outcome.ts) and finishes (finish-run.ts): `done`, `failed`, `interrupted`, … — never a hang.
 *
 * A run is crash-safe: the board is durable, each role's machine state is persisted at every step, and
 * every effect of a step has an identity (src/engine/effect-identity.ts), so `resumeRun` restores the
 * machines and re-runs in-flight steps without doing anything twice.
 */
import path from 'node:path';
import { PromptRenderer, schemaWarmUpTask, usageFromExchanges, WarmUp, type WarmUpTask } from '../capabilities/model/index.ts';
import { loadPolicy, writeRefusals } from '../capabilities/policy/index.ts';
import { Workspace } from '../capabilities/repository/index.ts';
import { type CompanyDefinition, type EarlierUsage, FileRunStore, RunLoop, type RunStore, startAfresh } from '../engine/run/index.ts';
import { stepsOf } from '../engine/sop/index.ts';
import { SopworksError } from '../ground/errors.ts';
import { finishRun, type RunResult } from './finish-run.ts';
import { openRun } from './open-run.ts';
import { projectInstructions } from './project-instructions.ts';
import { type RunRecord, readRecordOf } from './run-record.ts';
import type { CommonRequest, ResumeRequest, StartRequest } from './run-request.ts';
import { askOutputs, markdownRenderers } from './vocabulary.ts';

export const DEFAULT_CONCURRENCY = 4;

/** Starts a new run in a new repository. */
export async function startRun(request: StartRequest): Promise<RunResult> {
  // A change's work tree is at its base now: the repository's instruction files as the change found them.
  const instructions = await projectInstructions(request.change ? request.projectDir : null, request.instructions ?? null);
  const renderer = new PromptRenderer(request.company.rolesDir, markdownRenderers, instructions);
  const warmUp = new WarmUp();
  // What the first model calls need is prepared while the start-up waits on files (docs/performance.md).
  warmUp.add(firstCallWarmUp(request.company, renderer, request.approvals?.clarify ?? false));
  const workspace = request.change ? await Workspace.open(request.projectDir) : await Workspace.create(request.projectDir);
  const record: RunRecord = {
    ...(request.change ? { change: request.change.record } : {}),
    spec: request.change ? request.change.request : request.spec,
    project: request.project,
    llm: request.llm,
    model: request.provider.label,
    sops: path.resolve(request.company.sopsDir),
    roles: path.resolve(request.company.rolesDir),
    startedAt: new Date().toISOString(),
    resumedAt: [],
    budget: request.budget ?? { usd: null, tokens: null },
    approvals: { gates: [...(request.approvals?.gates ?? [])], yes: request.approvals?.yes ?? false, clarify: request.approvals?.clarify ?? false },
    concurrency: request.concurrency ?? DEFAULT_CONCURRENCY,
    engineers: request.engineers ?? 1,
    until: request.until ?? null,
    ...(instructions === null ? {} : { instructions }),
  };
  return runInWorkspace(workspace, record, request, { resuming: false, renderer, warmUp });
}

/** Continues a run that stopped before its outcome: after a crash, Ctrl-C, or a step that failed. */
export async function resumeRun(request: ResumeRequest): Promise<RunResult> {
  const workspace = await Workspace.open(request.projectDir);
  const record: RunRecord = { ...request.record, model: request.provider.label, resumedAt: [...request.record.resumedAt, new Date().toISOString()] };
  return runInWorkspace(workspace, record, request, {
    resuming: true,
    renderer: new PromptRenderer(request.company.rolesDir, markdownRenderers, record.instructions ?? null),
    warmUp: new WarmUp(),
  });
}

/** Reads run.json of a project and says whether it can be resumed. */
export async function resumableRecord(projectDir: string): Promise<RunRecord> {
  const record = await readRecordOf(FileRunStore.of(projectDir));
  if (record.outcome === 'done') {
    throw new SopworksError('NOT_RESUMABLE', `${projectDir} finished with outcome done; there is nothing to resume.`, {
      hint: `Start anew with ${startAfresh(record)}.`,
    });
  }
  return record;
}

interface RunOptions {
  resuming: boolean;
  renderer: PromptRenderer;
  warmUp: WarmUp;
}

/** Open → loop → finish, under the repository's lock. */
async function runInWorkspace(workspace: Workspace, record: RunRecord, request: CommonRequest, { resuming, renderer, warmUp }: RunOptions): Promise<RunResult> {
  const started = Date.now();
  const emit = request.onEvent ?? (() => {});
  const { company } = request;
  const policy = request.policy ?? (await loadPolicy(company.sopsDir));
  workspace.guardWrites((role, paths) => writeRefusals(policy, role, paths));
  const store: RunStore = FileRunStore.of(workspace.root);
  const lock = await store.lock(request.lease ?? null);
  const onLost = () => emit({ kind: 'notice', text: `Stopping at once: ${String(lock.lost.reason)}; another worker resumes the run from its folder.` });
  lock.lost.addEventListener('abort', onLost, { once: true });
  try {
    if (lock.tookOver) emit({ kind: 'notice', text: `Took over the lock of ${lock.tookOver}.` });
    const run = await openRun(workspace, store, record, request, {
      resuming,
      renderer,
      warmUp,
      policy,
      approvals: record.approvals,
      askPerson: request.askPerson ?? null,
      answerPerson: request.answerPerson ?? null,
      emit,
    });
    const loop = new RunLoop({
      company,
      board: run.board,
      ports: run.ports,
      approvals: run.approvals,
      modelLabel: run.gateway.provider.label,
      projectDir: workspace.root,
      roleStore: store.roles,
      emit,
      requirement: {
        ...(record.change ? { request: record.spec } : { spec: record.spec }),
        project: record.project,
        ...documentsOf(record),
      },
      resuming,
      earlier: resuming ? earlierUsage(run.exchanges.records(), record) : null,
      // A lost lease (a queued run taken over by another worker) stops the run at once, as a second Ctrl-C;
      // the time limit stays its own (outcome timed-out).
      stop: {
        soft: request.stop?.soft,
        hard: request.stop?.hard ? AbortSignal.any([request.stop.hard, lock.lost]) : lock.lost,
        deadline: request.stop?.deadline,
      },
      concurrency: record.concurrency,
      engineers: record.engineers,
      until: record.until,
      workInFlight: run.workInFlight,
      commitFault: run.commitFault,
    });
    const conclusion = await loop.run();
    return await finishRun(run, conclusion, started, request.recordTo ?? null);
  } finally {
    // After an error on the way: end git's stream cleanly (what was committed stays committed).
    await workspace.finish().catch(() => undefined);
    lock.lost.removeEventListener('abort', onLost);
    await lock.release();
  }
}

/** What the run's earlier processes used (its exchange log, read before this one asks anything) and took. */
function earlierUsage(records: Parameters<typeof usageFromExchanges>[0], record: RunRecord): EarlierUsage {
  const total = usageFromExchanges(records).total();
  return { tokens: total.promptTokens + total.completionTokens, costUsd: total.costUsd, wallMs: record.wallMs ?? 0 };
}

/** Where a change run keeps its documents, as its record says (`sopworks change`: the run folder unless --commit-documents). */
function documentsOf(record: RunRecord): { documents?: 'commit' | 'run-folder' } {
  const documents = (record.change as { documents?: unknown } | undefined)?.documents;
  return documents === 'commit' || documents === 'run-folder' ? { documents } : {};
}

/**
 * What the run's first model calls need, in order: the system prompt, then for each role that acts on
 * the requirement, its first ask's template, output format and output schema (a `clarify` step's only
 * when the run asks questions first: otherwise it calls no model).
 */
function firstCallWarmUp(company: CompanyDefinition, renderer: PromptRenderer, clarify: boolean): WarmUpTask[] {
  const tasks = [renderer.warmUpTask(null, 'system')];
  const { vocabulary } = company;
  for (const role of company.roles.filter((r) => r.watches.includes('Requirement'))) {
    const first = stepsOf(role.sop, vocabulary)
      .filter((step) => clarify || step.src !== 'clarify')
      .map((step) => (step.params ? vocabulary.steps[step.src]?.prompt?.(step.params) : undefined))
      .find((prompt) => prompt !== undefined);
    if (!first) continue;
    const format = first.output === 'code' || first.output === 'files' || first.output === 'edits' ? first.output : 'json';
    tasks.push(renderer.warmUpTask(role.id, first.action), renderer.warmUpTask(null, `format-${format}`));
    const schema = askOutputs[first.output];
    if (schema) tasks.push(schemaWarmUpTask(schema));
  }
  return tasks;
}
