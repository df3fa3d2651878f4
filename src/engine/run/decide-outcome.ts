/**
 * How a run ends: the outcome decided from a snapshot of the company, or null while the run goes on.
 * Pure — the run loop (run-loop.ts) takes the snapshot after every change and acts on the decision.
 *
 * The order in which outcomes win is the heart of "never a hang":
 *   1. a commit that failed              → failed
 *   2. a role whose step failed          → budget-exhausted or failed (the first such role in org-chart order;
 *                                          a step stopped by a gentle stop is not a failure); paused when the
 *                                          endpoint's limit stopped it and said when it resets (`resumeAt`)
 *   3. an approval or a question waits, nothing in flight → awaiting-approval
 *   3b. a stop point reached (`--until`), nothing in flight → paused
 *   —  a role is at work                 → no outcome yet
 *   4. the user asked to stop            → interrupted (the time limit: timed-out)
 *   5. an outcome posted on the board    → that outcome (the first one posted stands): done, failed, or
 *                                          criteria-unmet (delivered, a P0 criterion not proven)
 *   6. otherwise                         → failed: the company stalled, and says where
 */

import { describeError, SopworksError } from '../../ground/errors.ts';
import type { Outcome } from '../board/index.ts';
import type { RoleStatus } from '../roles/index.ts';

export const RUN_OUTCOMES = ['done', 'failed', 'criteria-unmet', 'budget-exhausted', 'awaiting-approval', 'interrupted', 'timed-out', 'paused'] as const;
export type RunOutcome = (typeof RUN_OUTCOMES)[number];

export interface RunConclusion {
  outcome: RunOutcome;
  reason: string;
  /** When the run can go on: the reset of the limit that paused it (ISO 8601). */
  resumeAt?: string;
}

/** What the decision looks at of a hired role. */
export interface RoleSnapshot {
  id: string;
  status: RoleStatus;
  /** The state the role's machine is in. */
  state: string;
  /** Messages delivered to the role that it has not taken yet. */
  waiting: readonly { type: string; id: string }[];
}

export interface CompanySnapshot {
  /** The first commit that failed, if any. */
  commitFault: string | null;
  /** The hired roles, in org-chart order. */
  roles: readonly RoleSnapshot[];
  /** Approval requests, and questions (`questions`: how many), waiting for a person who is not there. */
  approvalsWaiting: readonly { role: string; gate: string; key: string | null; questions?: number }[];
  /** The stop point (`--until`) where roles hold. */
  stopsReached: readonly { role: string; point: string }[];
  /** Model calls, posts and test rounds under way. */
  workInFlight: number;
  /** Whether the user asked to stop: after the steps in flight (`soft`) or at once (`hard`); or the time limit was reached (`time`). */
  stopping: 'soft' | 'hard' | 'time' | null;
  /** Why the run was asked to stop when it was not the user (the output closed, say); absent or null: the user. */
  stopReason?: string | null;
  /** The run's time limit as given (`--max-time 10m`), when it has one. */
  timeLimit?: string | null;
  /** The first outcome a role posted on the board. */
  posted: Outcome | null;
  /** The board's last message, to say where a stalled run stopped. */
  lastMessage: { type: string; id: string; from: string } | null;
}

const hasCode = (error: unknown, code: string): boolean => SopworksError.isInstance(error) && error.code === code;

export function decideOutcome(company: CompanySnapshot): RunConclusion | null {
  if (company.commitFault) return { outcome: 'failed', reason: company.commitFault };
  for (const role of company.roles) {
    const { status } = role;
    if (status.kind !== 'error') continue;
    // A step that stopped part-way because the user asked to stop (eachFile's files under way are done):
    // the role has stopped, not failed; resumed, the step carries on.
    if (company.stopping === 'soft' && hasCode(status.error, 'INTERRUPTED')) continue;
    if (hasCode(status.error, 'MODEL_QUOTA') && (status.error as SopworksError).resumeAt) {
      const error = status.error as SopworksError;
      return { outcome: 'paused', reason: `${role.id} paused in step "${status.state}": ${describeError(error)}`, resumeAt: error.resumeAt! };
    }
    if (hasCode(status.error, 'BUDGET_EXHAUSTED')) {
      return { outcome: 'budget-exhausted', reason: `${role.id} stopped before step "${status.state}": ${(status.error as Error).message}` };
    }
    return { outcome: 'failed', reason: `${role.id} failed in step "${status.state}": ${describeError(status.error)}` };
  }
  if (company.approvalsWaiting.length > 0 && company.workInFlight === 0) {
    const approvals = company.approvalsWaiting.filter((r) => r.questions === undefined);
    const questions = company.approvalsWaiting.filter((r) => r.questions !== undefined);
    const what = [
      ...(approvals.length > 0 ? [`approve ${approvals.map((r) => `${r.gate}${r.key ? ` ${r.key}` : ''} from ${r.role}`).join(', ')}`] : []),
      ...questions.map((r) => `answer ${r.questions === 1 ? 'a question' : `${r.questions} questions`} from ${r.role}`),
    ];
    return { outcome: 'awaiting-approval', reason: `waiting for a person to ${what.join(' and ')}` };
  }
  if (company.stopsReached.length > 0 && company.workInFlight === 0) {
    const { role, point } = company.stopsReached[0]!;
    return { outcome: 'paused', reason: `stopped at ${point} (${role}), as --until ${point} asked; resume goes on to the end` };
  }
  if (company.roles.some((r) => r.status.kind === 'working')) return null;
  if (company.stopping === 'time') {
    return { outcome: 'timed-out', reason: `the time limit (--max-time ${company.timeLimit ?? '?'}) was reached; the steps in flight were stopped` };
  }
  if (company.stopping) {
    const how = company.stopping === 'soft' ? 'after the steps in flight' : 'at once';
    return {
      outcome: 'interrupted',
      reason: company.stopping === 'soft' && company.stopReason ? `${company.stopReason}: stopped ${how}` : `stopped by the user (${how})`,
    };
  }
  if (company.posted) return { outcome: company.posted.outcome, reason: company.posted.reason };
  const waiting = company.roles.flatMap((r) => r.waiting.map((m) => `${r.id} has ${m.type} ${m.id} waiting in state "${r.state}"`));
  const last = company.lastMessage;
  return {
    outcome: 'failed',
    reason:
      'the company stalled: no role is at work and no outcome was reached' +
      (waiting.length > 0 ? ` (${waiting.join('; ')})` : last ? ` (last message: ${last.type} ${last.id} from ${last.from})` : ''),
  };
}
