/** What a role's SOP machine may use: the only doors from a SOP to the outside world. */
import type { MessageBoard } from '../board/message-board.ts';
import type { Draft, Message } from '../board/message.ts';
import type { Gateway } from '../../capabilities/model/gateway.ts';
import type { RoleProfile } from '../roles/role-profile.ts';
import type { Workspace } from '../../capabilities/repository/workspace.ts';
import type { ApprovalDesk } from '../../capabilities/approvals/approval-desk.ts';
import type { Policy } from '../../capabilities/policy/policy-file.ts';
import type { SopFile } from './sop-file.ts';
import type { SandboxSettings } from '../../host/sandbox/sandbox-settings.ts';
import type { StopPoints } from '../run/stop-points.ts';

export interface RoleServices {
  profile: RoleProfile;
  board: MessageBoard;
  gateway: Gateway;
  workspace: Workspace;
  /** What each role may write and run (sops/policy.yaml). */
  policy: Policy;
  /** How generated code runs (runTests). */
  sandbox: SandboxSettings;
  /**
   * Posts a message on the board, and queues the commit of the files it carries, authored by this role.
   * `nth` counts the role's messages: when the role's n-th message is already on the board (a step re-run
   * after a restore), that message is returned instead of posting it again. Resolves once the message is
   * on the board (`onPosted` is told just before); the commit is not waited for — see `filesOnDisk`.
   */
  publish(draft: Draft, nth: number, onPosted?: (message: Message) => void): Promise<Message>;
  /**
   * Aborted when the run is asked to stop after the steps in flight (a first Ctrl-C): `eachFile` then
   * finishes the files under way, starts no more, and fails with INTERRUPTED (resumed, it carries on).
   */
  windDown: AbortSignal;
  /** How many files `eachFile` works on at once (`--concurrency`). */
  concurrency: number;
  /**
   * Who holds this role (`--engineers N` hires N; otherwise the role itself). `eachFile` gives each file
   * a writer and a reviewer among them.
   */
  seats: RoleProfile[];
  /** In a per-file machine: who writes the file and who reviews it (an `ask` step's `by`). */
  fileSeats?: { writer: RoleProfile; reviewer: RoleProfile };
  /** The per-file SOPs this role's `eachFile` steps run, by the name the step gives (resolved, checked). */
  subSops: Record<string, SopFile>;
  /** Resolves once every artifact posted so far is committed — its files on disk — e.g. before running tests. */
  filesOnDisk(): Promise<void>;
  /** Approval gates: whether a gate is on, and the decision on an artifact held back. */
  approvals: ApprovalDesk;
  /** The run's early stop (`--until`): `stopAt` steps pass, or hold at the point the run stops at. */
  stopPoints: Pick<StopPoints, 'pass'>;
  /**
   * Counts `work` as in flight until it settles (company/work-in-flight.ts): a run does not stop with
   * awaiting-approval while it goes on. Used for a test round; model calls and posts are counted where they are made.
   */
  trackWork<T>(work: () => Promise<T>): Promise<T>;
  /** Tells the user what the role is doing (progress lines). */
  report(event: { kind: 'tests-start' | 'tests-end' | 'check'; detail: string }): void;
}
