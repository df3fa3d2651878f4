/**
 * The run loop: hires (or restores) every role, delivers each board message to the roles that watch its
 * type, and after every change looks at the company and asks `decideOutcome` whether the run has ended.
 * Stop signals (Ctrl-C) and a failed commit feed the same decision.
 */
import path from 'node:path';
import { describeError, SopworksError } from '../../ground/errors.ts';
import type { Message, MessageBoard, Outcome, Requirement } from '../board/index.ts';
import { RoleRuntime, seatsOf } from '../roles/index.ts';
import { buildMachine, CLIENT } from '../sop/index.ts';
import type { ApprovalPort, Ports } from '../steps/index.ts';
import { type CompanySnapshot, decideOutcome, type RunConclusion } from './decide-outcome.ts';
import type { CompanyDefinition, HiredRole } from './load-company.ts';
import type { EarlierUsage, LoopEvent } from './run-events.ts';
import type { RoleStates } from './run-store.ts';
import { StopPoints } from './stop-points.ts';
import type { WorkInFlight } from './work-in-flight.ts';

/**
 * Asks a run to stop: `soft` finishes the steps in flight first, `hard` stops at once; `deadline`
 * (`--max-time`) stops at once too, the outcome saying the time limit was reached.
 */
export interface StopSignals {
  /** Its abort reason, when a string, says why the run stops if not at the user's asking ("the output was closed"). */
  soft?: AbortSignal;
  hard?: AbortSignal;
  deadline?: { signal: AbortSignal; limit: string };
}

/** The first commit that failed, if any; `notify` is set by the run loop to look at it at once. */
export interface CommitFault {
  first: string | null;
  notify: () => void;
}

/** Approval gates as the loop sees them: the port the roles use, and the requests waiting for a person. */
export interface RunApprovals extends ApprovalPort {
  /** Requests waiting for a person who is not there (the run stops with awaiting-approval); `questions`: how many a role asks. */
  readonly waiting: readonly { role: string; gate: string; key: string | null; questions?: number }[];
  /** Set by the loop: told when a request starts waiting, so the loop looks at the company again. */
  notify: () => void;
}

/** The ports every role shares; the loop adds each role's own (who it is, the run as it sees it, its per-file SOPs). */
export type SharedPorts = Omit<Ports, 'role' | 'run' | 'machines' | 'approvals'>;

/** What the loop runs on: the opened run (src/company/open-run.ts) and the settings the run was started with. */
export interface RunLoopSetup {
  company: CompanyDefinition;
  board: MessageBoard;
  ports: SharedPorts;
  approvals: RunApprovals;
  /** The model as shown to the user, in the `start` event. */
  modelLabel: string;
  /** The project's folder, in the `start` event. */
  projectDir: string;
  /** Where each role's machine state is saved at every step (the run's store). */
  roleStore: RoleStates;
  emit: (event: LoopEvent) => void;
  requirement: Requirement;
  /** Whether the roles' saved states are to be restored (a fresh run has none). */
  resuming: boolean;
  stop: StopSignals;
  concurrency: number;
  engineers: number;
  /** A resumed run's usage and time before this process, in the `start` event; none for a new run. */
  earlier?: EarlierUsage | null;
  /** The stop point the run ends at (`--until`); none by default. */
  until?: string | null;
  workInFlight: WorkInFlight;
  commitFault: CommitFault;
}

export class RunLoop {
  private readonly company: CompanyDefinition;
  private readonly board: MessageBoard;
  /** Each role's runtime once hired, in org-chart order. */
  private readonly hired: (RoleRuntime | null)[];
  private readonly watchers: Map<string, Set<string>>;
  private readonly windDown = new AbortController();
  private readonly stopPoints: StopPoints;
  private savedStates: Awaited<ReturnType<RoleStates['load']>>[] = [];
  /** An outcome posted on the board; the run ends with it once every role has finished its step. */
  private posted: Outcome | null;
  private stopping: 'soft' | 'hard' | 'time' | null = null;
  /** Roles hired before `run` are started with the others; after, at once. */
  private started = false;
  /** The outcome is only looked for once the requirement is on the board. */
  private watching = false;
  private checkScheduled = false;
  private conclusion: RunConclusion | null = null;
  private finish!: (conclusion: RunConclusion) => void;
  private readonly finished = new Promise<RunConclusion>((resolve) => (this.finish = resolve));

  constructor(private readonly setup: RunLoopSetup) {
    this.company = setup.company;
    this.board = setup.board;
    this.hired = setup.company.roles.map(() => null);
    this.watchers = new Map(setup.company.roles.map((r) => [r.id, new Set(r.watches)]));
    this.posted = setup.board.latest<Outcome>('Outcome')?.payload ?? null;
    setup.approvals.notify = () => this.schedule();
    this.stopPoints = new StopPoints(setup.until ?? null, () => this.schedule());
    setup.commitFault.notify = () => this.schedule();
  }

  /** Runs the company until its outcome. */
  async run(): Promise<RunConclusion> {
    const { setup, company, board } = this;
    this.savedStates = setup.resuming ? await Promise.all(company.roles.map((role) => setup.roleStore.load(role.id))) : [];
    // Hired before the run starts: every role of a resumed run, and the roles that act first. The others
    // wait for a message in their first state: hired later by `hireTheRest`, or by a message for them
    // (why: docs/performance.md).
    company.roles.forEach((role, index) => {
      if (setup.resuming || role.watches.includes('Requirement') || !waitsForMessages(role.sop)) this.hire(index);
    });
    board.subscribe((message) => {
      // The first outcome stands; roles still at work (a writer documenting the code, say) finish first.
      if (message.type === 'Outcome' && !this.posted) this.posted = message.payload as Outcome;
      // Nothing more is handed out once a reason to stop is known (a failed commit, a security finding).
      if (!this.stopping && !this.setup.commitFault.first) this.deliver(message);
    });

    const soft = () => this.stopSoftly();
    const hard = () => this.stopAtOnce();
    const late = () => this.stopAtOnce('time');
    if (setup.stop.soft?.aborted) soft();
    if (setup.stop.hard?.aborted) hard();
    setup.stop.soft?.addEventListener('abort', soft, { once: true });
    setup.stop.hard?.addEventListener('abort', hard, { once: true });
    if (setup.stop.deadline?.signal.aborted) late();
    setup.stop.deadline?.signal.addEventListener('abort', late, { once: true });

    const roles = company.roles.map((r) => r.id);
    const earlier = setup.earlier ? { earlier: setup.earlier } : {};
    setup.emit({ kind: 'start', project: path.basename(setup.projectDir), projectDir: setup.projectDir, model: setup.modelLabel, roles, ...earlier });
    this.started = true;
    for (const runtime of this.runtimes()) runtime.start();
    // Messages a role had not taken when the run stopped (all of them, on a fresh board: none).
    for (const message of board.list()) if (!this.stopping) this.deliver(message);
    // A new run starts here; so does a run that crashed before the requirement was on the board.
    if (!board.latest('Requirement')) await board.post({ type: 'Requirement', from: CLIENT, payload: setup.requirement });
    this.watching = true;
    this.schedule();
    setImmediate(() => this.hireTheRest());

    const conclusion = await this.finished;
    setup.stop.soft?.removeEventListener('abort', soft);
    setup.stop.hard?.removeEventListener('abort', hard);
    setup.stop.deadline?.signal.removeEventListener('abort', late);
    for (const runtime of this.runtimes()) runtime.stop();
    return conclusion;
  }

  /** The company as `decideOutcome` sees it. */
  snapshot(): CompanySnapshot {
    const last = this.board.list().at(-1);
    return {
      commitFault: this.setup.commitFault.first,
      roles: this.runtimes().map((r) => ({ id: r.id, status: r.status(), state: r.state, waiting: r.waiting })),
      approvalsWaiting: this.setup.approvals.waiting,
      stopsReached: this.stopPoints.reached,
      workInFlight: this.setup.workInFlight.count,
      stopping: this.stopping,
      stopReason: typeof this.setup.stop.soft?.reason === 'string' ? this.setup.stop.soft.reason : null,
      timeLimit: this.setup.stop.deadline?.limit ?? null,
      posted: this.posted,
      lastMessage: last ? { type: last.type, id: last.id, from: last.from } : null,
    };
  }

  private runtimes(): RoleRuntime[] {
    return this.hired.filter((runtime): runtime is RoleRuntime => runtime !== null);
  }

  /** Looks for the outcome once the current turn of the event loop is over (many changes, one look). */
  private schedule(): void {
    if (this.checkScheduled) return;
    this.checkScheduled = true;
    setImmediate(() => {
      this.checkScheduled = false;
      if (this.conclusion || !this.watching) return;
      const conclusion = decideOutcome(this.snapshot());
      if (conclusion) this.conclude(conclusion);
    });
  }

  private conclude(conclusion: RunConclusion): void {
    if (this.conclusion) return;
    this.conclusion = conclusion;
    for (const runtime of this.runtimes()) runtime.stop();
    this.finish(conclusion);
  }

  private readonly onRoleChange = (runtime: RoleRuntime): void => {
    void this.setup.roleStore.save(runtime.id, runtime.progress());
    this.schedule();
  };

  private deliver(message: Message): void {
    this.company.roles.forEach((role, index) => {
      const addressed = message.to === 'all' || message.to === role.id;
      if (addressed && message.from !== role.id && this.watchers.get(role.id)!.has(message.type)) this.hire(index).deliver(message);
    });
  }

  private hire(index: number): RoleRuntime {
    const already = this.hired[index];
    if (already) return already;
    const role = this.company.roles[index]!;
    const ports = this.portsOf(role);
    const saved = this.savedStates[index];
    const machine = buildMachine(role.sop, ports, this.company.vocabulary, {}, { startsNothingOnceWoundDown: true });
    let runtime: RoleRuntime;
    try {
      runtime = new RoleRuntime(role.id, machine, this.onRoleChange, saved?.snapshot ? { snapshot: saved.snapshot, delivered: saved.delivered } : null);
    } catch (error) {
      throw new SopworksError('NOT_RESUMABLE', `The saved state of ${role.id} does not fit its SOP ${role.sopFile}: ${(error as Error).message}`, {
        hint: 'The SOP changed since the run started in a way its saved state cannot follow; start a new run.',
      });
    }
    this.hired[index] = runtime;
    if (this.started) runtime.start();
    return runtime;
  }

  /** What a role's steps may use: the shared ports, and its own. */
  private portsOf(role: HiredRole): Ports {
    const { setup } = this;
    const { vocabulary } = this.company;
    return {
      ...setup.ports,
      approvals: setup.approvals,
      // Several people hold a role only where the work splits by file (its SOP runs eachFile).
      role: {
        profile: role.profile,
        settings: role.settings,
        seats: Object.keys(role.subSops).length > 0 ? seatsOf(role.profile, setup.engineers) : [role.profile],
      },
      run: {
        windDown: this.windDown.signal,
        concurrency: setup.concurrency,
        trackWork: (work) => setup.workInFlight.track(work),
        report: (progress) => setup.emit({ ...progress, role: role.id }),
        stopAt: (point, signal) => this.stopPoints.pass(role.id, point, signal),
      },
      machines: { subSops: role.subSops, build: (sop, ports, initial) => buildMachine(sop, ports, vocabulary, initial) },
    };
  }

  /** Hires the roles not hired yet, one per turn of the event loop, while the first model call is out. */
  private hireTheRest(): void {
    const next = this.hired.indexOf(null);
    if (next < 0 || this.conclusion || this.stopping) return;
    try {
      this.hire(next);
    } catch (error) {
      // Off any step's way, so nobody else would report it: the run ends with it.
      this.conclude({ outcome: 'failed', reason: `${this.company.roles[next]!.id} could not be hired: ${describeError(error)}` });
      return;
    }
    setImmediate(() => this.hireTheRest());
  }

  /** The first Ctrl-C: the steps in flight finish (eachFile's files under way too), nothing new starts. */
  private stopSoftly(): void {
    if (this.stopping) return;
    this.stopping = 'soft';
    this.windDown.abort();
    this.setup.emit({ kind: 'notice', text: 'Stopping after the steps in flight (Ctrl-C again to stop at once)…' });
    for (const runtime of this.runtimes()) runtime.finishStepThenStop();
    this.schedule();
  }

  /** The second Ctrl-C, or the time limit: the steps in flight are stopped (a model call aborted), nothing is waited for. */
  private stopAtOnce(why: 'hard' | 'time' = 'hard'): void {
    if (this.stopping === 'hard' || this.stopping === 'time') return;
    this.stopping = why;
    this.windDown.abort();
    if (why === 'time')
      this.setup.emit({ kind: 'notice', text: `The time limit (--max-time ${this.setup.stop.deadline?.limit}) is reached: stopping the steps in flight now…` });
    for (const runtime of this.runtimes()) runtime.stop();
    this.schedule();
  }
}

/** Whether a SOP's first state only waits for messages (does nothing until one comes). */
function waitsForMessages(sop: HiredRole['sop']): boolean {
  const first = sop.states[sop.initial];
  return first !== undefined && !first.invoke && !first.always && !first.entry && !first.states;
}
