/**
 * Opening a run in its repository: the run's state files (board, exchange log, role states, run.json),
 * the budget left, the model gateway, and the materializer that commits what is posted. On resume it
 * also repairs what a crash left: a torn last line of the board, a git index lock, artifacts posted but
 * not committed.
 */
import path from 'node:path';
import type { Message } from '../engine/board/message.ts';
import { AppendLog, repairAppendLog } from '../ground/files/append-log.ts';
import { MessageBoard } from '../engine/board/message-board.ts';
import { describeError } from '../ground/errors.ts';
import { earlierMessage } from '../engine/effect-identity.ts';
import { clearPending } from '../capabilities/approvals/approval-desk.ts';
import { Budget } from '../capabilities/model/budget.ts';
import { ExchangeJournal, ExchangeReplay, usageFromExchanges } from '../capabilities/model/exchange-log.ts';
import { Gateway, replyParsingWarmUpTasks, schemaWarmUpTask } from '../capabilities/model/gateway.ts';
import type { PromptRenderer } from '../capabilities/model/prompt-renderer.ts';
import { UsageMeter } from '../capabilities/model/usage.ts';
import type { WarmUp } from '../capabilities/model/warm-up.ts';
import { policyWarmUpTasks } from '../capabilities/policy/may-write.ts';
import type { Policy } from '../capabilities/policy/policy-file.ts';
import type { RoleServices } from '../engine/sop/services.ts';
import { askSchemas } from './vocabulary/actors.ts';
import { Materializer } from '../capabilities/repository/materializer.ts';
import type { Author, Workspace } from '../capabilities/repository/workspace.ts';
import { RoleStore } from '../engine/run/role-store.ts';
import { stopOnSecurityFindings } from '../engine/run/security-stop.ts';
import { DEFAULT_SANDBOX_SETTINGS } from '../host/sandbox/sandbox-settings.ts';
import type { RunEvent } from '../engine/run/run-events.ts';
import type { CommitFault } from '../engine/run/run-loop.ts';
import { writeRunRecord, type RunRecord } from '../engine/run/run-record.ts';
import type { CommonRequest } from './run-request.ts';
import { WorkInFlight } from '../engine/run/work-in-flight.ts';

export interface OpenRunOptions {
  resuming: boolean;
  renderer: PromptRenderer;
  /** Work done ahead of need, while the run waits (warm-up.ts). */
  warmUp: WarmUp;
  policy: Policy;
  emit: (event: RunEvent) => void;
}

/** A run whose state is open: what the run loop works with, and what `finishRun` closes. */
export interface OpenRun {
  workspace: Workspace;
  record: RunRecord;
  board: MessageBoard;
  exchanges: ExchangeJournal;
  roleStore: RoleStore;
  materializer: Materializer;
  gateway: Gateway;
  workInFlight: WorkInFlight;
  commitFault: CommitFault;
  /** Posts a role's n-th message once (see RoleServices.publish). */
  publish: RoleServices['publish'];
}

export async function openRun(workspace: Workspace, record: RunRecord, request: CommonRequest, options: OpenRunOptions): Promise<OpenRun> {
  const { resuming, renderer, warmUp, policy, emit } = options;
  const { company } = request;
  const stateDir = workspace.stateDir;
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
  request.provider.resumeFrom?.(replay.records);
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
  // A security violation in a test run, or a test command this machine cannot sandbox, stops the run.
  stopOnSecurityFindings(board, commitFault, request.sandbox ?? DEFAULT_SANDBOX_SETTINGS, workspace.root);

  const workInFlight = new WorkInFlight();
  const gateway = new Gateway({
    provider: request.provider,
    renderer,
    warmUp,
    meter: new UsageMeter(),
    exchanges,
    maxRepairs: request.maxRepairs,
    guidance: request.guidance ?? null,
    replay,
    budget,
    price: request.price ?? null,
    maxOutputTokens: request.maxOutputTokens,
    onEvent: (event) => {
      if (event.kind === 'call-start') workInFlight.begin();
      if (event.kind === 'call-end') workInFlight.end();
      emit({ kind: 'model', event });
    },
  });
  // The rest of the templates and schemas, the reply parsers and the policy's globs (docs/performance.md).
  gateway.prepareWhileWaiting([
    ...renderer.warmUpTasks(company.roles.map((r) => r.id)),
    ...Object.values(askSchemas).map(schemaWarmUpTask),
    ...replyParsingWarmUpTasks(Object.values(askSchemas)),
    ...policyWarmUpTasks(policy),
  ]);

  /**
   * A role's n-th message is posted once: a step re-run after a restore gets the one on the board.
   * The step goes on once the message is on the board (durable); its commit follows in the background
   * and `Materializer.catchUp` makes it on resume if a crash comes first.
   */
  const publish: RoleServices['publish'] = (draft, nth, onPosted) =>
    workInFlight.track(async () => {
      const message: Message = earlierMessage(board.list(), draft, nth) ?? (await board.post(draft));
      onPosted?.(message);
      return message;
    });

  return { workspace, record, board, exchanges, roleStore, materializer, gateway, workInFlight, commitFault, publish };
}
