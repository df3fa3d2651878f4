/**
 * Runs one job per file over a dependency graph: a file's job starts once every file it depends on is
 * written, independent jobs run concurrently up to a limit, and whatever order they finish in, their
 * board messages go out in the files' given (topological) order — so the history is the same whatever
 * the timing. A job frees its concurrency slot when its file is written (what it then publishes is
 * bookkeeping that waits for its turn), so dependents and other files can start at once.
 */
import { setMaxListeners } from 'node:events';
import { SopworksError } from '../../ground/errors.ts';

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
  const { files, concurrency } = run;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new SopworksError('USAGE', `concurrency must be a whole number of at least 1, not ${concurrency}.`);
  const rank = new Map(files.map((f, i) => [f, i]));
  const deps = new Map(files.map((f) => [f, run.dependsOn(f).filter((d) => rank.has(d) && d !== f)]));
  for (const [file, list] of deps) {
    for (const dep of list) {
      if (rank.get(dep)! > rank.get(file)!)
        throw new SopworksError('TASK_GRAPH_INVALID', `"${file}" depends on "${dep}", which comes after it: the files must be in dependency order.`);
    }
  }

  const abort = new AbortController();
  // Every running job listens to it: as many listeners as files at once, which is not a leak.
  setMaxListeners(0, abort.signal);
  const onOuterAbort = () => abort.abort(run.signal?.reason);
  run.signal?.addEventListener('abort', onOuterAbort, { once: true });

  const contents = new Map<string, string>();
  const state = new Map<string, 'waiting' | 'running' | 'written' | 'ended' | 'skipped'>(files.map((f) => [f, 'waiting']));
  /** Per file: messages published, and whether its turn has passed (its job ended, or it was skipped). */
  const messages = files.map(() => 0);
  const turnPassed = files.map(() => false);
  const turnWaiters: { index: number; resolve: (n: number) => void; reject: (e: unknown) => void }[] = [];
  let slotsInUse = 0;
  let failure: unknown = null;

  return new Promise<DagResult>((resolve, reject) => {
    const finishIfDone = () => {
      if (failure !== null) return;
      if (files.every((f, i) => turnPassed[i] && state.get(f) !== 'running')) {
        run.signal?.removeEventListener('abort', onOuterAbort);
        run.windDown?.removeEventListener('abort', onWindDown);
        resolve({
          written: files.filter((f) => contents.has(f)),
          skipped: files.filter((f) => state.get(f) === 'skipped'),
          published: messages.reduce((a, b) => a + b, 0),
        });
      }
    };
    const fail = (error: unknown) => {
      if (failure !== null) return;
      failure = error;
      abort.abort(error);
      for (const waiter of turnWaiters.splice(0)) waiter.reject(error);
      run.signal?.removeEventListener('abort', onOuterAbort);
      run.windDown?.removeEventListener('abort', onWindDown);
      reject(error);
    };
    abort.signal.addEventListener('abort', () => fail(abort.signal.reason ?? new Error('the files were stopped before they were finished')), { once: true });

    const before = (index: number): number | null => {
      let count = 0;
      for (let i = 0; i < index; i++) {
        if (!turnPassed[i]) return null;
        count += messages[i]!;
      }
      return count;
    };
    const wakeTurns = () => {
      for (const waiter of [...turnWaiters]) {
        const count = before(waiter.index);
        if (count === null) continue;
        turnWaiters.splice(turnWaiters.indexOf(waiter), 1);
        waiter.resolve(count);
      }
    };
    const passTurn = (index: number) => {
      turnPassed[index] = true;
      wakeTurns();
    };

    const skipDependents = () => {
      let changed = true;
      while (changed) {
        changed = false;
        for (const file of files) {
          if (state.get(file) !== 'waiting') continue;
          if (deps.get(file)!.some((d) => state.get(d) === 'ended' || state.get(d) === 'skipped')) {
            state.set(file, 'skipped');
            passTurn(rank.get(file)!);
            changed = true;
          }
        }
      }
    };

    const stopIfWoundDown = () => {
      if (!run.windDown?.aborted || failure !== null) return;
      const underWay = files.filter((f) => state.get(f) === 'running' && !contents.has(f));
      if (underWay.length === 0)
        fail(new SopworksError('INTERRUPTED', `stopped after the files under way (${files.filter((f) => contents.has(f)).length} of ${files.length} written)`));
    };
    const onWindDown = () => queueMicrotask(stopIfWoundDown);
    run.windDown?.addEventListener('abort', onWindDown, { once: true });

    const startReady = () => {
      if (failure !== null) return;
      if (run.windDown?.aborted) return stopIfWoundDown();
      for (const file of files) {
        if (slotsInUse >= concurrency) break;
        if (state.get(file) !== 'waiting' || !deps.get(file)!.every((d) => contents.has(d))) continue;
        start(file);
      }
      finishIfDone();
    };

    const start = (file: string) => {
      const index = rank.get(file)!;
      state.set(file, 'running');
      slotsInUse++;
      let holdsSlot = true;
      const release = () => {
        if (!holdsSlot) return;
        holdsSlot = false;
        slotsInUse--;
      };
      const handle: JobHandle = {
        written: (content) => {
          if (contents.has(file)) return;
          contents.set(file, content);
          release();
          queueMicrotask(startReady);
        },
        turn: () =>
          new Promise<number>((res, rej) => {
            if (failure !== null) return rej(failure);
            const count = before(index);
            if (count !== null) return res(count);
            turnWaiters.push({ index, resolve: res, reject: rej });
          }),
        posted: () => {
          if (turnPassed[index])
            throw new SopworksError(
              'SOP_INVALID',
              `the work on ${file} published a second message; a per-file SOP publishes at most one (its Code, or an Outcome)`,
            );
          messages[index]!++;
          passTurn(index);
        },
        dependencies: Object.fromEntries(
          deps
            .get(file)!
            .filter((d) => contents.has(d))
            .map((d) => [d, contents.get(d)!]),
        ),
        signal: abort.signal,
      };
      run
        .job(file, handle)
        .then(() => {
          release();
          state.set(file, contents.has(file) ? 'written' : 'ended');
          if (!turnPassed[index]) passTurn(index);
          skipDependents();
          startReady();
        })
        .catch(fail);
    };

    if (files.length === 0) return resolve({ written: [], skipped: [], published: 0 });
    startReady();
  });
}
