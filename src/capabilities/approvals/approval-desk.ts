/**
 * Approval gates (`--approve prd,design,code,tests`): a role holds an artifact back until a person
 * decides. A decision is an `Approval` message the client posts on the board, identified by role, gate,
 * key and round — so a step re-run after a resume finds it. With `--yes` every artifact is approved; at a
 * terminal the person is asked; otherwise the request waits, the run stops with `awaiting-approval`, and
 * `sopworks approve` records the decision for `resume` to pick up.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { MessageBoard } from '../../engine/board/message-board.ts';
import type { Approval } from '../../documents/schemas.ts';
import { sameApproval } from '../../engine/effect-identity.ts';
import type { RunApprovals } from '../../engine/run/run-loop.ts';
import type { RunStore } from '../../engine/run/run-store.ts';

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

export interface Decision {
  approved: boolean;
  feedback: string | null;
}

/** Asks a person at a terminal; null when there is nobody to ask. */
export type AskPerson = (request: ApprovalRequest) => Promise<Decision>;

export interface ApprovalPolicy {
  gates: readonly Gate[];
  /** Approve everything without asking. */
  yes: boolean;
}

export const pendingFile = (stateDir: string): string => path.join(stateDir, 'approvals.json');

export class ApprovalDesk implements RunApprovals {
  private readonly pending: ApprovalRequest[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  /** Told when a request starts waiting for a person who is not here (set by the run loop). */
  notify: () => void = () => {};

  /** `shelf`: where the requests a stopped run waits on are kept (its run store), for `sopworks approve`. */
  constructor(
    private readonly board: MessageBoard,
    private readonly shelf: Pick<RunStore, 'writeWaiting'>,
    readonly policy: ApprovalPolicy,
    private readonly askPerson: AskPerson | null,
  ) {}

  gated(gate: Gate): boolean {
    return this.policy.gates.includes(gate);
  }

  /** Requests waiting for a person who is not here (the run stops with awaiting-approval). */
  get waiting(): readonly ApprovalRequest[] {
    return this.pending;
  }

  /**
   * The decision on a request: from the board when it was made before, else `--yes`, else the person at
   * the terminal (one question at a time). Without either, it waits — until the run is stopped.
   */
  decide(request: ApprovalRequest, signal?: AbortSignal): Promise<Decision> {
    const earlier = this.board.all<Approval>('Approval').find((m) => sameApproval(m.payload, request));
    if (earlier) return Promise.resolve({ approved: earlier.payload.approved, feedback: earlier.payload.feedback });
    if (this.policy.yes) return this.record(request, { approved: true, feedback: null });
    if (this.askPerson) {
      const asked = this.queue.then(async () => this.record(request, await this.askPerson!(request)));
      this.queue = asked.catch(() => undefined);
      return asked;
    }
    return new Promise<Decision>((_, reject) => {
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

/** The requests a stopped run is waiting on (written when it stopped). */
export async function readPending(stateDir: string): Promise<ApprovalRequest[]> {
  const text = await fs.readFile(pendingFile(stateDir), 'utf8').catch(() => '[]');
  return z.array(ApprovalRequest).parse(JSON.parse(text));
}

export async function clearPending(stateDir: string): Promise<void> {
  await fs.rm(pendingFile(stateDir), { force: true });
}
