/**
 * Opening a run in its repository: its state (board, exchange log, run.json) from its store, the model
 * gateway on the exchange log, the materializer that commits what is posted, and the ports every role's
 * steps use. On resume it also repairs what a crash left: a torn last line of the board, a git index
 * lock, artifacts posted but not committed.
 */

import { createHash } from 'node:crypto';
import { type AnswerPerson, ApprovalDesk, type ApprovalPolicy, type AskPerson } from '../capabilities/approvals/index.ts';
import { documentLine, documentMarkdown } from '../capabilities/artifacts/index.ts';
import {
  type ExchangeJournal,
  type Gateway,
  openGateway,
  type PromptRenderer,
  replyParsingWarmUpTasks,
  schemaWarmUpTask,
  type WarmUp,
} from '../capabilities/model/index.ts';
import { type Policy, policyPort, policyWarmUpTasks } from '../capabilities/policy/index.ts';
import { Materializer, type Workspace } from '../capabilities/repository/index.ts';
import { stopOnSecurityFindings } from '../capabilities/test-round/index.ts';
import type { PRD } from '../documents/index.ts';
import { MessageBoard } from '../engine/board/index.ts';
import { type CommitFault, publishOnce, type RunStore, type SharedPorts, WorkInFlight } from '../engine/run/index.ts';
import { describeError } from '../ground/errors.ts';
import { DEFAULT_SANDBOX_SETTINGS } from '../host/sandbox/index.ts';
import type { Company } from './load-company.ts';
import type { RunEvent } from './run-events.ts';
import type { RunRecord } from './run-record.ts';
import type { CommonRequest } from './run-request.ts';
import { askOutputs } from './vocabulary.ts';

export interface OpenRunOptions {
  resuming: boolean;
  renderer: PromptRenderer;
  /** Work done ahead of need, while the run waits (warm-up.ts). */
  warmUp: WarmUp;
  policy: Policy;
  approvals: ApprovalPolicy;
  askPerson: AskPerson | null;
  answerPerson: AnswerPerson | null;
  emit: (event: RunEvent) => void;
}

/** A run whose state is open: what the run loop works with, and what `finishRun` closes. */
export interface OpenRun {
  workspace: Workspace;
  store: RunStore;
  record: RunRecord;
  board: MessageBoard;
  exchanges: ExchangeJournal;
  materializer: Materializer;
  gateway: Gateway;
  workInFlight: WorkInFlight;
  commitFault: CommitFault;
  /** What every role's steps use (src/engine/steps/ports.ts). */
  ports: SharedPorts;
  approvals: ApprovalDesk;
}

export async function openRun(workspace: Workspace, store: RunStore, record: RunRecord, request: CommonRequest, options: OpenRunOptions): Promise<OpenRun> {
  const { resuming, emit } = options;
  if (resuming && (await workspace.recoverFromCrash())) emit({ kind: 'notice', text: 'Removed a git index lock left by a crash.' });
  // Independent: opened and written together.
  const [boardLog, exchangeLog] = await Promise.all([store.openBoard(), store.openExchanges(), store.writeWaiting([]), store.writeRecord(record)]);
  const board = MessageBoard.restore(boardLog.records, boardLog.log, `${store.where}/board.jsonl`, { types: request.company.vocabulary.messages });
  if (boardLog.droppedTail !== null) emit({ kind: 'notice', text: 'Dropped a torn last line of the board log (a crash mid-write).' });
  const commitFault: CommitFault = { first: null, notify: () => {} };
  const materializer = await openCommits(board, workspace, request.company, commitFault, { ...options, lastStop: lastStop(record) });
  board.subscribe((message) => emit({ kind: 'message', message }));
  // A security violation in a test run, or a test command this machine cannot sandbox, stops the run.
  stopOnSecurityFindings(board, commitFault, request.sandbox ?? DEFAULT_SANDBOX_SETTINGS, workspace.root);
  const workInFlight = new WorkInFlight();
  const { gateway, exchanges } = openGateway(exchangeLog, {
    provider: request.provider,
    renderer: options.renderer,
    warmUp: options.warmUp,
    maxRepairs: request.maxRepairs,
    guidance: request.guidance ?? null,
    limits: record.budget,
    price: request.price ?? null,
    maxOutputTokens: request.maxOutputTokens,
    // One key per run and role, the same after a resume: what the run was asked and when it started, hashed.
    promptCacheScope: createHash('sha256').update(`${record.project}\n${record.startedAt}`).digest('hex').slice(0, 12),
    onEvent: (event) => {
      if (event.kind === 'call-start') workInFlight.begin();
      if (event.kind === 'call-end') workInFlight.end();
      emit({ kind: 'model', event });
    },
  });
  // The rest of the templates and schemas, the reply parsers and the policy's globs (docs/performance.md).
  gateway.prepareWhileWaiting([
    ...options.renderer.warmUpTasks(request.company.roles.map((r) => r.id)),
    ...Object.values(askOutputs).map(schemaWarmUpTask),
    ...replyParsingWarmUpTasks(Object.values(askOutputs)),
    ...policyWarmUpTasks(options.policy),
  ]);
  const ports: SharedPorts = {
    board,
    publish: publishOnce(board, workInFlight),
    model: gateway,
    repository: {
      root: workspace.root,
      readFile: (file) => workspace.readFile(file),
      withCommitsHeld: (work) => workspace.withCommitsHeld(work),
      filesOnDisk: () => materializer.settled(),
    },
    policy: policyPort(options.policy),
    sandbox: request.sandbox ?? DEFAULT_SANDBOX_SETTINGS,
    // A design shown for approval is titled as docs/design.md will be: with the PRD's name for the project.
    documents: { markdown: (value) => documentMarkdown(value, board.latest<PRD>('PRD')?.payload.projectName ?? record.project), line: documentLine },
  };
  const approvals = new ApprovalDesk(board, store, options.approvals, options.askPerson, options.answerPerson);
  return { workspace, store, record, board, exchanges, materializer, gateway, workInFlight, commitFault, ports, approvals };
}

/** The materializer that commits what is posted, each commit authored by its role; on resume, first the commits a crash prevented. */
async function openCommits(
  board: MessageBoard,
  workspace: Workspace,
  company: Company,
  fault: CommitFault,
  options: OpenRunOptions & { lastStop: string },
): Promise<Materializer> {
  const { emit } = options;
  const authors = new Map(company.roles.map((r) => [r.id, { name: r.profile.title, email: r.profile.email }]));
  const materializer = new Materializer(
    board,
    workspace,
    (id) => authors.get(id) ?? { name: id, email: `${id}@sopworks.local` },
    (message, subject) => emit({ kind: 'commit', role: message.from, subject }),
    (message, error) => {
      fault.first ??= `the commit of ${message.type} ${message.id} from ${message.from} failed: ${describeError(error)}`;
      fault.notify();
    },
  );
  if (options.resuming) {
    const made = await materializer.catchUp(board);
    if (made > 0) emit({ kind: 'notice', text: `Committed ${made} artifact(s) whose commit ${options.lastStop} had prevented.` });
  }
  return materializer;
}

/**
 * What ended the process that ran it last, as resume says it: its outcome, when that process wrote one
 * (run.json keeps an earlier outcome until the run ends again: a resume after it with no finish since
 * was a crash), else a crash.
 */
export function lastStop(record: RunRecord): string {
  const earlierResume = record.resumedAt.at(-2);
  const finishedLast = record.outcome && record.finishedAt && !(earlierResume && earlierResume > record.finishedAt);
  return finishedLast ? `the run's stop (${record.outcome})` : 'a crash';
}
