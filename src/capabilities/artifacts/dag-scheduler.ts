/**
 * Runs one job per file over a dependency graph: a file's job starts once every file it depends on is
 * written, independent jobs run concurrently up to a limit, and whatever order they finish in, their
 * board messages go out in the files' given (topological) order — so the history is the same whatever
 * the timing. A job frees its concurrency slot when its file is written (what it then publishes is
 * bookkeeping that waits for its turn), so dependents and other files can start at once.
 */
import { setMaxListeners } from 'node:events';
import { SopworksError } from '../../ground/errors.ts';
import { TurnOrder } from './turn-order.ts';

export interface JobHandle {
  /** The file is written (its final content): dependents may start, and the job's slot is freed. */
  written(content: string): void;
  /**
   * Waits until every earlier file has taken its turn (posted its message, or ended without one), and
   * returns how many messages the earlier files posted: the offset of this job's message in the batch.
   */
  turn(): Promise<number>;
  /**
   * Counts a message this job posted and ends its turn: later files may post theirs (its commit may
   * still be in progress). A job posts at most one message.
   */
  posted(): void;
  /** Contents of the written files this job's file depends on. */
  dependencies: Record<string, string>;
  signal: AbortSignal;
}

export interface DagRun {
  /** Files in dependency order with a stable tie-break; their messages go out in this order. */
  files: readonly string[];
  /** Each file's dependencies (those outside `files` are taken as written already). */
  dependsOn: (file: string) => readonly string[];
  concurrency: number;
  job: (file: string, handle: JobHandle) => Promise<void>;
  signal?: AbortSignal;
  /**
   * Winding down (a gentle Ctrl-C): no file starts any more; once every file under way is written (or
   * has ended), the rest are stopped and the run rejects with INTERRUPTED — nothing is posted out of
   * order, and what the stopped files did (their model calls) is found again when the step is re-run.
   */
  windDown?: AbortSignal;
}

export interface DagResult {
  /** Files written, in the given order. */
  written: string[];
  /** Files never started because a file they depend on was not written. */
  skipped: string[];
  /** Messages the jobs published. */
  published: number;
}

export function runOverDag(run: DagRun): Promise<DagResult> {
  if (!Number.isInteger(run.concurrency) || run.concurrency < 1)
    throw new SopworksError('USAGE', `concurrency must be a whole number of at least 1, not ${run.concurrency}.`);
  return new DagScheduler(run, dependenciesInOrder(run)).result;
}

/** Each file's dependencies among `files`; refuses a file that depends on one after it. */
function dependenciesInOrder(run: DagRun): Map<string, readonly string[]> {
  const rank = new Map(run.files.map((f, i) => [f, i]));
  const deps = new Map(run.files.map((f) => [f, run.dependsOn(f).filter((d) => rank.has(d) && d !== f)]));
  for (const [file, list] of deps) {
    for (const dep of list) {
      if (rank.get(dep)! > rank.get(file)!)
        throw new SopworksError('TASK_GRAPH_INVALID', `"${file}" depends on "${dep}", which comes after it: the files must be in dependency order.`);
    }
  }
  return deps;
}

type FileState = 'waiting' | 'running' | 'written' | 'ended' | 'skipped';

/**
 * One run over the graph. Each method handles one event — a slot freed, a file written, a job ended, a
 * failure, a wind-down — and the run settles `result` once every file's turn has passed.
 */
class DagScheduler {
  readonly result: Promise<DagResult>;
  private settle!: { resolve: (result: DagResult) => void; reject: (error: unknown) => void };
  private readonly files: readonly string[];
  private readonly rank: Map<string, number>;
  private readonly state: Map<string, FileState>;
  private readonly contents = new Map<string, string>();
  private readonly turns: TurnOrder;
  private readonly abort = new AbortController();
  private slotsInUse = 0;
  private failure: { error: unknown } | null = null;

  constructor(
    private readonly run: DagRun,
    private readonly deps: Map<string, readonly string[]>,
  ) {
    this.files = run.files;
    this.rank = new Map(run.files.map((f, i) => [f, i]));
    this.state = new Map(run.files.map((f) => [f, 'waiting']));
    this.turns = new TurnOrder(run.files.length);
    this.result = new Promise<DagResult>((resolve, reject) => (this.settle = { resolve, reject }));
    // Every running job listens to it: as many listeners as files at once, which is not a leak.
    setMaxListeners(0, this.abort.signal);
    run.signal?.addEventListener('abort', this.onOuterAbort, { once: true });
    this.abort.signal.addEventListener('abort', () => this.fail(this.abort.signal.reason ?? new Error('the files were stopped before they were finished')), {
      once: true,
    });
    run.windDown?.addEventListener('abort', this.onWindDown, { once: true });
    this.startReady();
  }

  private readonly onOuterAbort = () => this.abort.abort(this.run.signal?.reason);
  private readonly onWindDown = () => queueMicrotask(() => this.stopIfWoundDown());

  /** Starts every waiting file whose dependencies are written, while slots are free. */
  private startReady(): void {
    if (this.failure) return;
    if (this.run.windDown?.aborted) {
      this.stopIfWoundDown();
      return;
    }
    for (const file of this.files) {
      if (this.slotsInUse >= this.run.concurrency) break;
      if (this.state.get(file) !== 'waiting' || !this.deps.get(file)!.every((d) => this.contents.has(d))) continue;
      this.start(file);
    }
    this.finishIfDone();
  }

  private start(file: string): void {
    this.state.set(file, 'running');
    this.slotsInUse++;
    let holdsSlot = true;
    const release = () => {
      if (!holdsSlot) return;
      holdsSlot = false;
      this.slotsInUse--;
    };
    let job: Promise<void>;
    try {
      job = this.run.job(file, this.handleFor(file, release));
    } catch (error) {
      job = Promise.reject(error);
    }
    job.then(() => this.onJobEnded(file, release)).catch((error: unknown) => this.fail(error));
  }

  private handleFor(file: string, release: () => void): JobHandle {
    const index = this.rank.get(file)!;
    return {
      written: (content) => {
        if (this.contents.has(file)) return;
        this.contents.set(file, content);
        release();
        queueMicrotask(() => this.startReady());
      },
      turn: () => this.turns.wait(index),
      posted: () => {
        if (this.turns.hasPassed(index))
          throw new SopworksError(
            'SOP_INVALID',
            `the work on ${file} published a second message; a per-file SOP publishes at most one (its Code, or an Outcome)`,
          );
        this.turns.post(index);
      },
      dependencies: Object.fromEntries(
        this.deps
          .get(file)!
          .filter((d) => this.contents.has(d))
          .map((d) => [d, this.contents.get(d)!]),
      ),
      signal: this.abort.signal,
    };
  }

  private onJobEnded(file: string, release: () => void): void {
    release();
    this.state.set(file, this.contents.has(file) ? 'written' : 'ended');
    const index = this.rank.get(file)!;
    if (!this.turns.hasPassed(index)) this.turns.pass(index);
    this.skipDependents();
    this.startReady();
  }

  /** A file that depends on one that ended unwritten (or was skipped) is skipped, transitively. */
  private skipDependents(): void {
    let changed = true;
    while (changed) {
      changed = false;
      for (const file of this.files) {
        if (this.state.get(file) !== 'waiting') continue;
        if (this.deps.get(file)!.some((d) => this.state.get(d) === 'ended' || this.state.get(d) === 'skipped')) {
          this.state.set(file, 'skipped');
          this.turns.pass(this.rank.get(file)!);
          changed = true;
        }
      }
    }
  }

  /** After a wind-down, once no file is under way (running and not yet written), the run stops. */
  private stopIfWoundDown(): void {
    if (!this.run.windDown?.aborted || this.failure) return;
    const underWay = this.files.filter((f) => this.state.get(f) === 'running' && !this.contents.has(f));
    if (underWay.length > 0) return;
    const written = this.files.filter((f) => this.contents.has(f)).length;
    this.fail(new SopworksError('INTERRUPTED', `stopped after the files under way (${written} of ${this.files.length} written)`));
  }

  private finishIfDone(): void {
    if (this.failure) return;
    if (!this.files.every((f, i) => this.turns.hasPassed(i) && this.state.get(f) !== 'running')) return;
    this.stopListening();
    this.settle.resolve({
      written: this.files.filter((f) => this.contents.has(f)),
      skipped: this.files.filter((f) => this.state.get(f) === 'skipped'),
      published: this.turns.published,
    });
  }

  /** The first failure wins: every job is aborted, every job waiting for its turn is told, the run rejects. */
  private fail(error: unknown): void {
    if (this.failure) return;
    this.failure = { error };
    this.abort.abort(error);
    this.turns.fail(error);
    this.stopListening();
    this.settle.reject(error);
  }

  private stopListening(): void {
    this.run.signal?.removeEventListener('abort', this.onOuterAbort);
    this.run.windDown?.removeEventListener('abort', this.onWindDown);
  }
}
