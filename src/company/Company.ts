/**
 * The company: hires the roles of the org chart, wires each SOP machine to the board, and runs until an
 * outcome — `done`, `failed`, `interrupted` — never a hang: a company in which no role is at work and no
 * outcome was reached has stalled, and says where.
 *
 * A run is crash-safe: the board is durable, each role's machine state is persisted at every step, and
 * every effect of a step has an identity (the n-th model call of an action for a key, the n-th message of
 * a role), so `resumeRun` restores the machines and re-runs in-flight steps without doing anything twice.
 */
import path from 'node:path';
import { AppendLog, repairAppendLog } from '../board/append-log.ts';
import { MessageBoard } from '../board/MessageBoard.ts';
import type { Draft, Message } from '../board/message.ts';
import type { Outcome, TestReport } from '../artifacts/schemas.ts';
import { runFigures } from '../artifacts/run-figures.ts';
import { describeError, SopworksError } from '../errors.ts';
import { ExchangeJournal, ExchangeReplay, usageFromExchanges } from '../llm/exchange-log.ts';
import { Budget, type BudgetLimits } from '../llm/budget.ts';
import type { Price } from '../llm/prices.ts';
import { writeRecordedScenario } from '../llm/record-scenario.ts';
import { Gateway, replyParsingWarmUpTasks, schemaWarmUpTask } from '../llm/Gateway.ts';
import { WarmUp, type WarmUpTask } from '../llm/warm-up.ts';
import { stepsNamed } from '../sop/sop-walk.ts';
import { PromptRenderer } from '../llm/prompt-renderer.ts';
import type { Provider } from '../llm/provider.ts';
import { UsageMeter } from '../llm/usage.ts';
import { RoleRuntime } from '../roles/RoleRuntime.ts';
import { seatsOf } from '../roles/role-profile.ts';
import { buildMachine } from '../sop/build-machine.ts';
import { askSchemas } from '../sop/vocabulary/actors.ts';
import type { RoleServices } from '../sop/services.ts';
import { loadPolicy } from '../policy/load-policy.ts';
import { policyWarmUpTasks, writeRefusals } from '../policy/may-write.ts';
import type { Policy } from '../policy/policy-file.ts';
import { DEFAULT_SANDBOX_SETTINGS, type SandboxSettings } from '../sandbox/sandbox-settings.ts';
import { Materializer } from '../workspace/materializer.ts';
import { STATE_DIR, Workspace, type Author } from '../workspace/Workspace.ts';
import type { CompanyDefinition, HiredRole } from './load-company.ts';
import { RoleStore } from './role-store.ts';
import { acquireRunLock } from './run-lock.ts';
import { readRunRecord, writeRunRecord, type LlmRecord, type RunOutcome, type RunRecord } from './run-record.ts';
import type { RunEvent } from './run-events.ts';
import { ApprovalDesk, clearPending, type ApprovalPolicy, type AskPerson } from '../approvals/ApprovalDesk.ts';

export const CLIENT = 'client';
export const DEFAULT_CONCURRENCY = 4;

/** Asks a run to stop: `soft` finishes the steps in flight first, `hard` stops at once. */
export interface StopSignals {
  soft?: AbortSignal;
  hard?: AbortSignal;
}

interface CommonRequest {
  company: CompanyDefinition;
  provider: Provider;
  maxRepairs: number;
  /** The model's price (null when unknown) and the largest reply a call may produce. */
  price?: Price | null;
  maxOutputTokens?: number;
  /** Where to write the run's exchanges as a scenario file, to replay it offline. */
  recordTo?: string | null;
  onEvent?: (event: RunEvent) => void;
  stop?: StopSignals;
  /** What each role may write and run; default: <sops>/policy.yaml, else the default policy. */
  policy?: Policy;
  /** How generated code runs; default: bubblewrap where it works, the default limits. */
  sandbox?: SandboxSettings;
  /** Who decides on artifacts held back for approval, when `--yes` is not given: null when nobody is there. */
  askPerson?: AskPerson | null;
}

export interface StartRequest extends CommonRequest {
  spec: string;
  project: string;
  /** The folder to create the repository in (must not exist yet). */
  projectDir: string;
  llm: LlmRecord;
  budget?: BudgetLimits;
  approvals?: ApprovalPolicy;
  /** How many files the Engineer works on at once (default DEFAULT_CONCURRENCY); kept in run.json for resume. */
  concurrency?: number;
  /** How many people hold each role that writes files one per file (`eachFile`): `--engineers N`, default 1. */
  engineers?: number;
}

export interface ResumeRequest extends CommonRequest {
  projectDir: string;
  /** What the run was started with (run.json); the provider may differ (e.g. another model). */
  record: RunRecord;
}

export interface RunResult {
  outcome: RunOutcome;
  reason: string;
  projectDir: string;
  /** Usage of the whole run, across restarts (from the exchange log). */
  usage: UsageMeter;
  messages: readonly Message[];
  lastTestReport: TestReport | null;
  wallMs: number;
}

/** Starts a new run in a new repository. */
export async function startRun(request: StartRequest): Promise<RunResult> {
  const renderer = new PromptRenderer(request.company.rolesDir);
  const warmUp = new WarmUp();
  // What the first model calls need is prepared while the start-up waits on files.
  warmUp.add(firstCallWarmUp(request.company, renderer));
  const workspace = await Workspace.create(request.projectDir);
  const record: RunRecord = {
    spec: request.spec,
    project: request.project,
    llm: request.llm,
    model: request.provider.label,
    sops: path.resolve(request.company.sopsDir),
    roles: path.resolve(request.company.rolesDir),
    startedAt: new Date().toISOString(),
    resumedAt: [],
    budget: request.budget ?? { usd: null, tokens: null },
    approvals: { gates: [...(request.approvals?.gates ?? [])], yes: request.approvals?.yes ?? false },
    concurrency: request.concurrency ?? DEFAULT_CONCURRENCY,
    engineers: request.engineers ?? 1,
  };
  return operate(workspace, record, request, { resuming: false, renderer, warmUp });
}

/** Continues a run that stopped before its outcome: after a crash, Ctrl-C, or a step that failed. */
export async function resumeRun(request: ResumeRequest): Promise<RunResult> {
  const workspace = await Workspace.open(request.projectDir);
  const record: RunRecord = { ...request.record, model: request.provider.label, resumedAt: [...request.record.resumedAt, new Date().toISOString()] };
  return operate(workspace, record, request, { resuming: true, renderer: new PromptRenderer(request.company.rolesDir), warmUp: new WarmUp() });
}

/** Reads run.json of a project and says whether it can be resumed. */
export async function resumableRecord(projectDir: string): Promise<RunRecord> {
  const record = await readRunRecord(path.join(projectDir, STATE_DIR));
  if (record.outcome === 'done') {
    throw new SopworksError('NOT_RESUMABLE', `${projectDir} finished with outcome done; there is nothing to resume.`, {
      hint: 'Start a new run with `sopworks run`.',
    });
  }
  return record;
}

interface OperateOptions {
  resuming: boolean;
  renderer: PromptRenderer;
  /** Work done ahead of need, while the run waits (warm-up.ts). */
  warmUp: WarmUp;
}

async function operate(workspace: Workspace, record: RunRecord, request: CommonRequest, { resuming, renderer, warmUp }: OperateOptions): Promise<RunResult> {
  const started = Date.now();
  const emit = request.onEvent ?? (() => {});
  const { company } = request;
  const policy = request.policy ?? (await loadPolicy(company.sopsDir));
  workspace.guardWrites((role, paths) => writeRefusals(policy, role, paths));
  const stateDir = workspace.stateDir;
  const lock = await acquireRunLock(stateDir);
  try {
    if (lock.tookOver) emit({ kind: 'notice', text: `Took over the lock of process ${lock.tookOver}, which is no longer running.` });
    if (resuming && (await workspace.recoverFromCrash())) emit({ kind: 'notice', text: 'Removed a git index lock left by a crash.' });
    const exchangesFile = path.join(stateDir, 'exchanges.jsonl');
    // Independent files: written and opened together.
    const [{ board, droppedTail }, exchangeLog, roleStore] = await Promise.all([
      MessageBoard.open(path.join(stateDir, 'board.jsonl')),
      repairAppendLog(exchangesFile).then(async ({ records }) => ({ records, log: await AppendLog.open(exchangesFile, { flush: 'close' }) })),
      RoleStore.open(stateDir),
      clearPending(stateDir),
      writeRunRecord(stateDir, record),
    ]);
    if (droppedTail !== null) emit({ kind: 'notice', text: 'Dropped a torn last line of the board log (a crash mid-write).' });
    const replay = ExchangeReplay.parse(exchangeLog.records);
    request.provider.skipUsed?.(replay.callsPerCall());
    const spentBefore = usageFromExchanges(replay.records).total();
    const budget =
      record.budget.usd === null && record.budget.tokens === null
        ? null
        : new Budget(record.budget, request.price ?? null, { usd: spentBefore.costUsd ?? 0, tokens: spentBefore.promptTokens + spentBefore.completionTokens });
    const exchanges = new ExchangeJournal(exchangeLog.log, replay.records);

    const authors = new Map<string, Author>(company.roles.map((r) => [r.id, { name: r.profile.title, email: r.profile.email }]));
    const commitFault: CommitFault = { first: null, notify: () => {} };
    const materializer = new Materializer(
      board,
      workspace,
      (id) => authors.get(id) ?? { name: id, email: `${id}@sopworks.local` },
      (message, subject) => emit({ kind: 'commit', role: message.from, subject }),
      (message, error) => {
        commitFault.first ??= `the commit of ${message.type} ${message.id} from ${message.from} failed: ${describeError(error)}`;
        commitFault.notify();
      },
    );
    if (resuming) {
      const made = await materializer.catchUp(board);
      if (made > 0) emit({ kind: 'notice', text: `Committed ${made} artifact(s) whose commit a crash had prevented.` });
    }
    board.subscribe((message) => emit({ kind: 'message', message }));

    const gateway = new Gateway({
      provider: request.provider,
      renderer,
      warmUp,
      meter: new UsageMeter(),
      exchanges,
      maxRepairs: request.maxRepairs,
      replay,
      budget,
      price: request.price ?? null,
      maxOutputTokens: request.maxOutputTokens,
      onEvent: (event) => {
        if (event.kind === 'call-start') effects.inFlight++;
        if (event.kind === 'call-end') effects.inFlight--;
        emit({ kind: 'model', event });
      },
    });

    // The rest of the templates and schemas, the reply parsers and the policy's globs: prepared once the
    // first call is out.
    gateway.prepareWhileWaiting([
      ...renderer.warmUpTasks(company.roles.map((r) => r.id)),
      ...Object.values(askSchemas).map(schemaWarmUpTask),
      ...replyParsingWarmUpTasks(Object.values(askSchemas)),
      ...policyWarmUpTasks(policy),
    ]);
    const effects = { inFlight: 0 };
    /**
     * A role's n-th message is posted once: a step re-run after a restore gets the one on the board.
     * The step goes on once the message is on the board (durable); its commit follows in the background
     * and `Materializer.catchUp` makes it on resume if a crash comes first.
     */
    const publish = async (draft: Draft, nth: number, onPosted?: (message: Message) => void): Promise<Message> => {
      effects.inFlight++;
      try {
        return await publishOnce(draft, nth, onPosted);
      } finally {
        effects.inFlight--;
      }
    };
    const publishOnce = async (draft: Draft, nth: number, onPosted?: (message: Message) => void): Promise<Message> => {
      const earlier = board.list().filter((m) => m.from === draft.from)[nth];
      const message = earlier ?? (await board.post(draft));
      if (earlier && earlier.type !== draft.type) {
        throw new SopworksError('NOT_RESUMABLE', `${draft.from}'s message #${nth + 1} on the board is a ${earlier.type}, but the resumed step publishes a ${draft.type}.`, {
          hint: 'The SOP changed in a way that reorders what this role publishes; start a new run.',
        });
      }
      onPosted?.(message);
      return message;
    };

    const requirement = { spec: record.spec, project: record.project };
    const outcome = await runRoles({
      company, board, workspace, gateway, publish, roleStore, emit, requirement, resuming, stop: request.stop ?? {}, policy,
      sandbox: request.sandbox ?? DEFAULT_SANDBOX_SETTINGS, concurrency: record.concurrency, engineers: record.engineers,
      approvals: record.approvals, askPerson: request.askPerson ?? null, effects, commitFault,
      filesOnDisk: () => materializer.settled(),
    });

    // The last commits, closing the logs and writing the run's record go on together: all are on the
    // run's critical path.
    materializer.stop();
    const repository = materializer.settled().then(() => workspace.finish());
    await Promise.all([roleStore.settled(), board.close(), exchanges.close()]);
    const allExchanges = exchanges.records();
    const usage = usageFromExchanges(allExchanges);
    const scenario = awaitedLater(request.recordTo ? writeRecordedScenario(request.recordTo, { spec: record.spec, name: record.project }, allExchanges) : undefined);
    const finished = (wallMs: number): RunRecord => ({
      ...record,
      finishedAt: new Date().toISOString(),
      outcome: outcome.outcome,
      reason: outcome.reason,
      wallMs: (record.wallMs ?? 0) + wallMs,
      usage: { total: usage.total(), byRole: Object.fromEntries(usage.byRole()), byAction: Object.fromEntries(usage.byAction()) },
      figures: runFigures(board.list()),
    });
    const written = awaitedLater(writeRunRecord(stateDir, finished(Date.now() - started)));
    await repository.catch((error: unknown) => {
      commitFault.first ??= `the repository could not be brought up to date: ${describeError(error)}`;
    });
    const wallMs = Date.now() - started;
    await written();
    // A commit that failed after the last step (the last artifact's) still fails the run: recorded again.
    if (commitFault.first && outcome.outcome !== 'failed') {
      Object.assign(outcome, { outcome: 'failed', reason: commitFault.first });
      await writeRunRecord(stateDir, finished(wallMs));
    }
    await scenario();
    return {
      outcome: outcome.outcome,
      reason: outcome.reason,
      projectDir: workspace.root,
      usage,
      messages: board.list(),
      lastTestReport: board.latest<TestReport>('TestReport')?.payload ?? null,
      wallMs,
    };
  } finally {
    // After an error on the way: end git's stream cleanly (what was committed stays committed).
    await workspace.finish().catch(() => undefined);
    await lock.release();
  }
}

interface RolesContext {
  company: CompanyDefinition;
  board: MessageBoard;
  workspace: Workspace;
  gateway: Gateway;
  publish: (draft: Draft, nth: number, onPosted?: (message: Message) => void) => Promise<Message>;
  roleStore: RoleStore;
  emit: (event: RunEvent) => void;
  requirement: { spec: string; project: string };
  /** Whether the roles' saved states are to be restored (a fresh run has none). */
  resuming: boolean;
  stop: StopSignals;
  policy: Policy;
  sandbox: SandboxSettings;
  concurrency: number;
  engineers: number;
  approvals: ApprovalPolicy;
  askPerson: AskPerson | null;
  /** Model calls, posts and test runs under way — none, while an approval waits, means the run waits on a person. */
  effects: { inFlight: number };
  /** The first commit that failed, if any; `notify` is set by runRoles to look at it at once. */
  commitFault: CommitFault;
  /** Resolves once every artifact posted so far is committed, so its files are on disk. */
  filesOnDisk: () => Promise<void>;
}

interface CommitFault {
  first: string | null;
  notify: () => void;
}

/** Hires (or restores) every role, delivers the board to them, and waits for the outcome. */
async function runRoles(ctx: RolesContext): Promise<{ outcome: RunOutcome; reason: string }> {
  const { company, board, emit } = ctx;
  let finish!: (outcome: { outcome: RunOutcome; reason: string }) => void;
  const finished = new Promise<{ outcome: RunOutcome; reason: string }>((resolve) => (finish = resolve));
  let concluded = false;
  const conclude = (outcome: { outcome: RunOutcome; reason: string }) => {
    if (concluded) return;
    concluded = true;
    finish(outcome);
  };

  let watching = false;
  let checkScheduled = false;
  let stopping: 'soft' | 'hard' | null = null;
  /** An outcome posted on the board; the run ends with it once every role has finished its step. */
  let posted: Outcome | null = board.latest<Outcome>('Outcome')?.payload ?? null;
  /** Each role's runtime once hired, in org-chart order. */
  const hired: (RoleRuntime | null)[] = company.roles.map(() => null);
  const runtimes = (): RoleRuntime[] => hired.filter((runtime): runtime is RoleRuntime => runtime !== null);
  const windDown = new AbortController();
  ctx.commitFault.notify = () => schedule();
  const desk = new ApprovalDesk(board, ctx.workspace.stateDir, ctx.approvals, ctx.askPerson, () => schedule());

  const checkProgress = () => {
    checkScheduled = false;
    if (concluded || !watching) return;
    if (ctx.commitFault.first) {
      for (const runtime of runtimes()) runtime.stop();
      return conclude({ outcome: 'failed', reason: ctx.commitFault.first });
    }
    for (const runtime of runtimes()) {
      const status = runtime.status();
      // A step that stopped part-way because the user asked to stop (eachFile's files under way are
      // done): the role has stopped, not failed; resumed, the step carries on.
      if (status.kind === 'error' && stopping === 'soft' && SopworksError.isInstance(status.error) && status.error.code === 'INTERRUPTED') continue;
      if (status.kind === 'error') {
        for (const other of runtimes()) other.stop();
        if (SopworksError.isInstance(status.error) && status.error.code === 'BUDGET_EXHAUSTED') {
          return conclude({ outcome: 'budget-exhausted', reason: `${runtime.id} stopped before step "${status.state}": ${status.error.message}` });
        }
        return conclude({ outcome: 'failed', reason: `${runtime.id} failed in step "${status.state}": ${describeError(status.error)}` });
      }
    }
    if (desk.waiting.length > 0 && ctx.effects.inFlight === 0) {
      for (const runtime of runtimes()) runtime.stop();
      const what = desk.waiting.map((r) => `${r.gate}${r.key ? ` ${r.key}` : ''} from ${r.role}`).join(', ');
      return conclude({ outcome: 'awaiting-approval', reason: `waiting for a person to approve ${what}` });
    }
    if (runtimes().some((r) => r.status().kind === 'working')) return;
    if (stopping) {
      return conclude({ outcome: 'interrupted', reason: `stopped by the user (${stopping === 'soft' ? 'after the steps in flight' : 'at once'})` });
    }
    if (posted) return conclude(posted);
    const waiting = runtimes().flatMap((r) => r.waiting.map((m) => `${r.id} has ${m.type} ${m.id} waiting in state "${r.state}"`));
    const last = board.list().at(-1);
    conclude({
      outcome: 'failed',
      reason:
        `the company stalled: no role is at work and no outcome was reached` +
        (waiting.length > 0 ? ` (${waiting.join('; ')})` : last ? ` (last message: ${last.type} ${last.id} from ${last.from})` : ''),
    });
  };
  const schedule = () => {
    if (!checkScheduled) {
      checkScheduled = true;
      setImmediate(checkProgress);
    }
  };
  const onRoleChange = (runtime: RoleRuntime) => {
    void ctx.roleStore.save(runtime.id, runtime.progress());
    schedule();
  };

  const savedStates = ctx.resuming ? await Promise.all(company.roles.map((role) => ctx.roleStore.load(role.id))) : company.roles.map(() => null);
  let started = false;
  const hire = (index: number): RoleRuntime => {
    const already = hired[index];
    if (already) return already;
    const role = company.roles[index]!;
    const services: RoleServices = {
      profile: role.profile,
      board,
      gateway: ctx.gateway,
      workspace: ctx.workspace,
      policy: ctx.policy,
      sandbox: ctx.sandbox,
      publish: ctx.publish,
      concurrency: ctx.concurrency,
      windDown: windDown.signal,
      // Several people hold a role only where the work splits by file (its SOP runs eachFile).
      seats: Object.keys(role.subSops).length > 0 ? seatsOf(role.profile, ctx.engineers) : [role.profile],
      subSops: role.subSops,
      approvals: desk,
      filesOnDisk: ctx.filesOnDisk,
      report: (event) => {
        if (event.kind === 'tests-start') ctx.effects.inFlight++;
        if (event.kind === 'tests-end') ctx.effects.inFlight--;
        emit({ kind: event.kind, role: role.id, detail: event.detail });
      },
    };
    const saved = savedStates[index];
    const machine = buildMachine(role.sop, services);
    let runtime: RoleRuntime;
    try {
      runtime = new RoleRuntime(role.id, machine, onRoleChange, saved?.snapshot ? { snapshot: saved.snapshot, delivered: saved.delivered } : null);
    } catch (error) {
      throw new SopworksError('NOT_RESUMABLE', `The saved state of ${role.id} does not fit its SOP ${role.sopFile}: ${(error as Error).message}`, {
        hint: 'The SOP changed since the run started in a way its saved state cannot follow; start a new run.',
      });
    }
    hired[index] = runtime;
    if (started) runtime.start();
    return runtime;
  };
  // Hired before the run starts: every role of a resumed run, and the roles that act first. The others
  // wait for a message in their first state; they are hired while the first model call is out (or when
  // a message for them comes first), so the first call goes out sooner.
  company.roles.forEach((role, index) => {
    if (ctx.resuming || role.watches.includes('Requirement') || !waitsForMessages(role.sop)) hire(index);
  });

  const watchers = new Map(company.roles.map((r) => [r.id, new Set(r.watches)]));
  const deliver = (message: Message) => {
    company.roles.forEach((role, index) => {
      const addressed = message.to === 'all' || message.to === role.id;
      if (addressed && message.from !== role.id && watchers.get(role.id)!.has(message.type)) hire(index).deliver(message);
    });
  };
  board.subscribe((message) => {
    // The first outcome stands; roles still at work (a writer documenting the code, say) finish first.
    if (message.type === 'Outcome' && !posted) posted = message.payload as Outcome;
    if (!stopping) deliver(message);
  });

  const soft = () => {
    if (stopping) return;
    stopping = 'soft';
    windDown.abort();
    emit({ kind: 'notice', text: 'Stopping after the steps in flight (Ctrl-C again to stop at once)…' });
    for (const runtime of runtimes()) runtime.finishStepThenStop();
    schedule();
  };
  const hard = () => {
    stopping = 'hard';
    for (const runtime of runtimes()) runtime.stop();
  };
  if (ctx.stop.soft?.aborted) soft();
  ctx.stop.soft?.addEventListener('abort', soft, { once: true });
  ctx.stop.hard?.addEventListener('abort', hard, { once: true });

  emit({ kind: 'start', project: path.basename(ctx.workspace.root), projectDir: ctx.workspace.root, model: ctx.gateway.provider.label, roles: company.roles.map((r) => r.id) });
  started = true;
  for (const runtime of runtimes()) runtime.start();
  // Messages a role had not taken when the run stopped (all of them, on a fresh board: none).
  for (const message of board.list()) if (!stopping) deliver(message);
  // A new run starts here; so does a run that crashed before the requirement was on the board.
  if (!board.latest('Requirement')) await board.post({ type: 'Requirement', from: CLIENT, payload: ctx.requirement });
  watching = true;
  schedule();
  const hireTheRest = () => {
    const next = hired.indexOf(null);
    if (next < 0 || concluded || stopping) return;
    try {
      hire(next);
    } catch (error) {
      // Off any step's way, so nobody else would report it: the run ends with it.
      for (const runtime of runtimes()) runtime.stop();
      return conclude({ outcome: 'failed', reason: `${company.roles[next]!.id} could not be hired: ${describeError(error)}` });
    }
    setImmediate(hireTheRest);
  };
  setImmediate(hireTheRest);

  const outcome = await finished;
  ctx.stop.soft?.removeEventListener('abort', soft);
  ctx.stop.hard?.removeEventListener('abort', hard);
  for (const runtime of runtimes()) runtime.stop();
  return outcome;
}

/** Whether a SOP's first state only waits for messages (does nothing until one comes). */
function waitsForMessages(sop: HiredRole['sop']): boolean {
  const first = sop.states[sop.initial];
  return first !== undefined && !first.invoke && !first.always && !first.entry && !first.states;
}

/**
 * What the run's first model calls need, in order: the system prompt, then for each role that acts on
 * the requirement, its first ask's template, output format and output schema.
 */
function firstCallWarmUp(company: CompanyDefinition, renderer: PromptRenderer): WarmUpTask[] {
  const tasks = [renderer.warmUpTask(null, 'system')];
  for (const role of company.roles.filter((r) => r.watches.includes('Requirement'))) {
    const first = stepsNamed(role.sop, 'ask')[0]?.params;
    if (!first) continue;
    const format = first.output === 'code' || first.output === 'files' ? first.output : 'json';
    tasks.push(renderer.warmUpTask(role.id, first.action), renderer.warmUpTask(null, `format-${format}`));
    const schema = askSchemas[first.output];
    if (schema) tasks.push(schemaWarmUpTask(schema));
  }
  return tasks;
}

/** A promise to wait for later: its failure is thrown then, not reported meanwhile as unhandled. */
function awaitedLater(promise: Promise<void> | undefined): () => Promise<void> {
  const settled = (promise ?? Promise.resolve()).then(
    () => null,
    (error: unknown) => ({ error }),
  );
  return async () => {
    const failure = await settled;
    if (failure) throw failure.error;
  };
}
