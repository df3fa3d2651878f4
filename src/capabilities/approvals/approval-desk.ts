/**
 * A person's say in a run. Approval gates (`--approve prd,design,code,tests`): a role holds an artifact
 * back until a person decides; a decision is an `Approval` message the client posts on the board,
 * identified by role, gate, key and round. Questions (`--clarify`): a role asks a few before it writes;
 * the answers are an `Answers` message the client posts, identified by role and round. Either way a step
 * re-run after a resume finds what was posted. With `--yes` every artifact is approved; at a terminal
 * the person is asked (questions too, unless the command was given `--yes`); otherwise — or when the
 * person leaves the question at Ctrl-C — the request waits, the run stops with `awaiting-approval`,
 * and `sopworks approve`, the workbench or a `resume` at a terminal gives what `resume` picks up.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { type Answers, type Approval, ClarifyingQuestion } from '../../documents/index.ts';
import type { MessageBoard } from '../../engine/board/index.ts';
import { sameApproval } from '../../engine/effect-identity.ts';
import type { RunApprovals, RunStore } from '../../engine/run/index.ts';
import type { QuestionsRequest as AskedQuestions } from '../../engine/steps/index.ts';
import { SopworksError } from '../../ground/errors.ts';

export const GATES = ['prd', 'design', 'code', 'tests'] as const;
export type Gate = (typeof GATES)[number];

export const ApprovalRequest = z.object({
  role: z.string(),
  gate: z.enum(GATES),
  key: z.string().nullable(),
  round: z.number().int().min(0),
  /** What the person is asked to approve, as markdown. */
  content: z.string(),
});
export type ApprovalRequest = z.infer<typeof ApprovalRequest>;

/** A role's questions waiting for the person's answers. */
export const QuestionsRequest = z.object({
  kind: z.literal('questions'),
  role: z.string(),
  round: z.number().int().min(0),
  questions: z.array(ClarifyingQuestion).min(1),
});
export type QuestionsRequest = z.infer<typeof QuestionsRequest>;

/** What a stopped run may wait on: a decision, or answers. */
const WaitingRequest = z.union([QuestionsRequest, ApprovalRequest]);
type WaitingRequest = z.infer<typeof WaitingRequest>;

const isQuestions = (request: WaitingRequest): request is QuestionsRequest => 'kind' in request && request.kind === 'questions';

export interface Decision {
  approved: boolean;
  feedback: string | null;
}

/** Asks a person at a terminal; null when there is nobody to ask. */
export type AskPerson = (request: ApprovalRequest) => Promise<Decision>;

/** Asks a person at a terminal each question; one answer per question ("" for no preference). */
export type AnswerPerson = (request: QuestionsRequest) => Promise<string[]>;

export interface ApprovalPolicy {
  gates: readonly Gate[];
  /** Approve everything without asking. */
  yes: boolean;
  /** Let roles ask the person questions before they write (`--clarify`). */
  clarify?: boolean;
}

export const pendingFile = (stateDir: string): string => path.join(stateDir, 'approvals.json');

export class ApprovalDesk implements RunApprovals {
  private readonly pending: WaitingRequest[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  /** Set when the person left a question at Ctrl-C: nobody is asked at the terminal after that. */
  private personLeft = false;
  /** Told when a request starts waiting for a person who is not here (set by the run loop). */
  notify: () => void = () => {};

  /** `shelf`: where the requests a stopped run waits on are kept (its run store), for `sopworks approve`. */
  constructor(
    private readonly board: MessageBoard,
    private readonly shelf: Pick<RunStore, 'writeWaiting'>,
    readonly policy: ApprovalPolicy,
    private readonly askPerson: AskPerson | null,
    private readonly answerPerson: AnswerPerson | null = null,
  ) {}

  gated(gate: Gate): boolean {
    return this.policy.gates.includes(gate);
  }

  clarifying(): boolean {
    return this.policy.clarify === true;
  }

  /** Requests waiting for a person who is not here (the run stops with awaiting-approval). */
  get waiting(): readonly { role: string; gate: string; key: string | null; questions?: number }[] {
    return this.pending.map((r) => (isQuestions(r) ? { role: r.role, gate: 'questions', key: null, questions: r.questions.length } : r));
  }

  /**
   * The decision on a request: from the board when it was made before, else `--yes`, else the person at
   * the terminal (one question at a time). Without either, it waits — until the run is stopped.
   */
  decide(request: ApprovalRequest, signal?: AbortSignal): Promise<Decision> {
    const earlier = this.board.all<Approval>('Approval').find((m) => sameApproval(m.payload, request));
    if (earlier) return Promise.resolve({ approved: earlier.payload.approved, feedback: earlier.payload.feedback });
    if (this.policy.yes) return this.record(request, { approved: true, feedback: null });
    if (this.askPerson) return this.askInTurn(request, async () => this.record(request, await this.askPerson!(request)), signal);
    return this.wait<Decision>(request, signal);
  }

  /**
   * The answers to a role's questions: from the board when they were given before, else from the person
   * at the terminal (none is given with `--yes`: nobody is expected there). Without one, they wait —
   * until the run is stopped.
   */
  answer(asked: AskedQuestions, signal?: AbortSignal): Promise<string[]> {
    const request: QuestionsRequest = { kind: 'questions', role: asked.role, round: asked.round, questions: [...asked.questions] };
    const earlier = this.board.all<Answers>('Answers').find((m) => m.payload.role === request.role && m.payload.round === request.round);
    if (earlier) return Promise.resolve(earlier.payload.answers.map((a) => a.answer));
    if (this.answerPerson) {
      const ask = async () => {
        const answers = await this.answerPerson!(request);
        await this.board.post(answersMessage(request, answers));
        return answers;
      };
      return this.askInTurn(request, ask, signal);
    }
    return this.wait<string[]>(request, signal);
  }

  /**
   * Asks the person at the terminal, in turn. Left at Ctrl-C (INTERRUPTED: the run is stopping), the
   * request waits as if nobody were there — nothing is recorded, and the run stops awaiting it.
   */
  private askInTurn<T>(request: WaitingRequest, ask: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    // Once the person has left, the requests queued behind are not put to them: they wait too.
    const askUnlessLeft = () => (this.personLeft ? Promise.reject(new SopworksError('INTERRUPTED', 'the person left at Ctrl-C')) : ask());
    return this.inTurn(askUnlessLeft).catch((error: unknown) => {
      if (!SopworksError.isInstance(error) || error.code !== 'INTERRUPTED') throw error;
      this.personLeft = true;
      return this.wait<T>(request, signal);
    });
  }

  /** One question at a time at the terminal, in the order asked. */
  private inTurn<T>(ask: () => Promise<T>): Promise<T> {
    const asked = this.queue.then(ask);
    this.queue = asked.catch(() => undefined);
    return asked;
  }

  private wait<T>(request: WaitingRequest, signal?: AbortSignal): Promise<T> {
    return new Promise<T>((_, reject) => {
      this.pending.push(request);
      void this.savePending();
      this.notify();
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  }

  private async record(request: ApprovalRequest, decision: Decision): Promise<Decision> {
    await this.board.post({
      type: 'Approval',
      from: 'client',
      to: request.role,
      payload: { role: request.role, gate: request.gate, key: request.key, round: request.round, ...decision },
    });
    return decision;
  }

  private async savePending(): Promise<void> {
    await this.shelf.writeWaiting(this.pending);
  }
}

/** The client's `Answers` message: each question with its answer ("" for no preference). */
export function answersMessage(request: QuestionsRequest, answers: readonly string[]) {
  const payload: Answers = {
    role: request.role,
    round: request.round,
    answers: request.questions.map((q, i) => ({ question: q.question, why: q.why, answer: (answers[i] ?? '').trim() })),
  };
  return { type: 'Answers', from: 'client', to: request.role, payload };
}

/** Everything a stopped run waits on, as stored (decisions and answers). */
export const parseWaiting = (records: unknown): WaitingRequest[] => z.array(WaitingRequest).parse(records);
export const approvalsOf = (requests: readonly WaitingRequest[]): ApprovalRequest[] => requests.filter((r): r is ApprovalRequest => !isQuestions(r));
export const questionsOf = (requests: readonly WaitingRequest[]): QuestionsRequest[] => requests.filter(isQuestions);

async function readWaitingFile(stateDir: string): Promise<WaitingRequest[]> {
  const text = await fs.readFile(pendingFile(stateDir), 'utf8').catch(() => '[]');
  return parseWaiting(JSON.parse(text));
}

/** The approval requests a stopped run is waiting on (written when it stopped). */
export async function readPending(stateDir: string): Promise<ApprovalRequest[]> {
  return approvalsOf(await readWaitingFile(stateDir));
}

/** The questions a stopped run is waiting for answers to. */
export async function readOpenQuestions(stateDir: string): Promise<QuestionsRequest[]> {
  return questionsOf(await readWaitingFile(stateDir));
}

export async function clearPending(stateDir: string): Promise<void> {
  await fs.rm(pendingFile(stateDir), { force: true });
}
