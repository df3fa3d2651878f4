/**
 * runOverDag: files start once what they depend on is written, at most `concurrency` at once, and their
 * messages go out in the given order whatever order the jobs finish in.
 */
import assert from 'node:assert/strict';
import { type JobHandle, runOverDag } from '../../../../src/capabilities/artifacts/dag-scheduler.ts';

/** A job whose steps the test releases by hand, so the order of events is the test's, not the clock's. */
class Gate {
  private readonly waiting = new Map<string, () => void>();
  wait(name: string): Promise<void> {
    return new Promise((resolve) => this.waiting.set(name, resolve));
  }
  open(name: string): void {
    const resolve = this.waiting.get(name);
    assert.ok(resolve, `${name} is waiting`);
    this.waiting.delete(name);
    resolve();
  }
  get names(): string[] {
    return [...this.waiting.keys()].sort();
  }
}
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the DAG scheduler', () => {
  it('starts a file once the files it depends on are written, up to the concurrency, and posts in the given order', async () => {
    // a and b are independent; c needs a; d needs b and c.
    const deps: Record<string, string[]> = { a: [], b: [], c: ['a'], d: ['b', 'c'] };
    const gate = new Gate();
    const posted: string[] = [];
    const seen: Record<string, Record<string, string>> = {};
    let running = 0;
    let most = 0;
    const done = runOverDag({
      files: ['a', 'b', 'c', 'd'],
      dependsOn: (f) => deps[f]!,
      concurrency: 2,
      job: async (file: string, handle: JobHandle) => {
        running++;
        most = Math.max(most, running);
        seen[file] = handle.dependencies;
        await gate.wait(file);
        running--;
        handle.written(`content of ${file}`);
        const offset = await handle.turn();
        posted.push(`${offset}:${file}`);
        handle.posted();
      },
    });
    await settle();
    assert.deepEqual(gate.names, ['a', 'b'], 'the two independent files start at once');
    gate.open('b'); // b is written first, but its message waits for a's
    await settle();
    assert.deepEqual(posted, []);
    assert.deepEqual(gate.names, ['a'], 'd still needs c');
    gate.open('a');
    await settle();
    assert.deepEqual(posted, ['0:a', '1:b']);
    assert.deepEqual(gate.names, ['c']);
    gate.open('c');
    await settle();
    gate.open('d');
    const result = await done;
    assert.deepEqual(posted, ['0:a', '1:b', '2:c', '3:d']);
    assert.deepEqual(result, { written: ['a', 'b', 'c', 'd'], skipped: [], published: 4 });
    assert.equal(most, 2);
    assert.deepEqual(seen.d, { b: 'content of b', c: 'content of c' }, 'a job sees the final content of what it depends on');
  });

  it('runs one file at a time at concurrency 1, in the given order', async () => {
    const started: string[] = [];
    await runOverDag({
      files: ['x', 'y', 'z'],
      dependsOn: () => [],
      concurrency: 1,
      job: async (file, handle) => {
        started.push(file);
        await settle();
        handle.written(file);
      },
    });
    assert.deepEqual(started, ['x', 'y', 'z']);
  });

  it('skips the files that depend on one that ended unwritten, and lets the others post', async () => {
    const posted: string[] = [];
    const result = await runOverDag({
      files: ['a', 'b', 'c'],
      dependsOn: (f) => (f === 'b' ? ['a'] : []),
      concurrency: 3,
      job: async (file, handle) => {
        if (file === 'a') return; // ended without writing its file (its SOP concluded, say)
        handle.written(file);
        posted.push(`${await handle.turn()}:${file}`);
        handle.posted();
      },
    });
    assert.deepEqual(result, { written: ['c'], skipped: ['b'], published: 1 });
    assert.deepEqual(posted, ['0:c']);
  });

  it('fails with the first error and aborts the jobs still running', async () => {
    let aborted = false;
    await assert.rejects(
      runOverDag({
        files: ['slow', 'bad'],
        dependsOn: () => [],
        concurrency: 2,
        job: async (file, handle) => {
          if (file === 'bad') throw new Error('the model is down');
          await new Promise<void>((resolve) => handle.signal.addEventListener('abort', () => resolve(), { once: true }));
          aborted = true;
        },
      }),
      /the model is down/,
    );
    assert.equal(aborted, true);
  });

  it('skips every file downstream of one that ended unwritten, however deep, and runs the rest', async () => {
    // a ends unwritten; b needs a, c needs b, d needs c and e: all three are skipped. e is independent.
    const deps: Record<string, string[]> = { a: [], b: ['a'], c: ['b'], e: [], d: ['c', 'e'] };
    const started: string[] = [];
    const result = await runOverDag({
      files: ['a', 'b', 'c', 'e', 'd'],
      dependsOn: (f) => deps[f]!,
      concurrency: 2,
      job: async (file, handle) => {
        started.push(file);
        if (file === 'a') return;
        handle.written(file);
        await handle.turn();
        handle.posted();
      },
    });
    assert.deepEqual(result, { written: ['e'], skipped: ['b', 'c', 'd'], published: 1 });
    assert.deepEqual(started, ['a', 'e']);
  });

  it('when a job fails while others run: the one waiting for its turn is told, the running one aborted, no file starts after', async () => {
    // a is slow; b is written and waits for a's turn; c takes the slot b freed and works on; d waits for a slot.
    const gate = new Gate();
    const started: string[] = [];
    const seen: string[] = [];
    const done = runOverDag({
      files: ['a', 'b', 'c', 'd'],
      dependsOn: () => [],
      concurrency: 2,
      job: async (file, handle) => {
        started.push(file);
        if (file === 'a') {
          await gate.wait('a');
          throw new Error('the model is down');
        }
        if (file === 'c') {
          await new Promise<void>((resolve) => handle.signal.addEventListener('abort', () => resolve(), { once: true }));
          seen.push('c aborted');
          return;
        }
        handle.written(file);
        await handle.turn().then(
          () => seen.push(`${file}: turn granted`),
          (error: Error) => seen.push(`${file}: turn refused (${error.message})`),
        );
      },
    });
    await settle();
    assert.deepEqual(started, ['a', 'b', 'c'], 'c took the slot b freed when it was written');
    gate.open('a');
    await assert.rejects(done, /the model is down/);
    await settle();
    assert.deepEqual(seen.sort(), ['b: turn refused (the model is down)', 'c aborted']);
    assert.deepEqual(started, ['a', 'b', 'c'], 'd never started');
  });

  it('stops mid-graph when its signal is aborted: the running jobs see the abort, the waiting files never start', async () => {
    const outer = new AbortController();
    const started: string[] = [];
    const abortedJobs: string[] = [];
    const done = runOverDag({
      files: ['a', 'b', 'c', 'd'],
      dependsOn: (f) => (f === 'c' ? ['a'] : f === 'd' ? ['c'] : []),
      concurrency: 2,
      signal: outer.signal,
      job: async (file, handle) => {
        started.push(file);
        if (file === 'a') {
          handle.written(file);
          return;
        }
        await new Promise<void>((resolve) => handle.signal.addEventListener('abort', () => resolve(), { once: true }));
        abortedJobs.push(file);
      },
    });
    await settle();
    assert.deepEqual(started, ['a', 'b', 'c'], 'c started once a was written');
    outer.abort(new Error('stopped by the user'));
    await assert.rejects(done, /stopped by the user/);
    await settle();
    assert.deepEqual(abortedJobs.sort(), ['b', 'c']);
    assert.deepEqual(started, ['a', 'b', 'c'], 'd never started');
  });

  it('fails the run on a job that throws before returning a promise, and on a second message from one file', async () => {
    await assert.rejects(
      runOverDag({
        files: ['a'],
        dependsOn: () => [],
        concurrency: 1,
        job: (() => {
          throw new Error('not even a promise');
        }) as never,
      }),
      /not even a promise/,
    );
    await assert.rejects(
      runOverDag({
        files: ['a'],
        dependsOn: () => [],
        concurrency: 1,
        job: async (_file, handle) => {
          handle.written('a');
          await handle.turn();
          handle.posted();
          handle.posted();
        },
      }),
      (error: { code?: string; message: string }) => error.code === 'SOP_INVALID' && /published a second message/.test(error.message),
    );
  });

  it('resolves at once on no files', async () => {
    assert.deepEqual(await runOverDag({ files: [], dependsOn: () => [], concurrency: 1, job: async () => {} }), { written: [], skipped: [], published: 0 });
  });

  it('refuses files out of dependency order and a concurrency below 1', () => {
    assert.throws(
      () => runOverDag({ files: ['b', 'a'], dependsOn: (f) => (f === 'b' ? ['a'] : []), concurrency: 1, job: async () => {} }),
      /"b" depends on "a", which comes after it/,
    );
    assert.throws(
      () => runOverDag({ files: ['a'], dependsOn: () => [], concurrency: 0, job: async () => {} }),
      /concurrency must be a whole number of at least 1/,
    );
  });

  it('winds down on a gentle stop: starts no more files, lets those under way be written, posts nothing out of order', async () => {
    // Five independent files, three at once. b is written while a is still under way: b must not post
    // before a, and once a and c are written too, the run stops without d and e.
    const gate = new Gate();
    const posted: string[] = [];
    const windDown = new AbortController();
    const done = runOverDag({
      files: ['a', 'b', 'c', 'd', 'e'],
      dependsOn: () => [],
      concurrency: 3,
      windDown: windDown.signal,
      job: async (file: string, handle: JobHandle) => {
        await gate.wait(file);
        handle.written(file);
        await handle.turn();
        posted.push(file);
        handle.posted();
        await gate.wait(`${file} after posting`);
      },
    });
    const outcome = done.then(
      () => 'resolved',
      (error: { code?: string; message: string }) => `${error.code}: ${error.message}`,
    );
    await settle();
    assert.deepEqual(gate.names, ['a', 'b', 'c']);
    windDown.abort();
    gate.open('b');
    await settle();
    assert.deepEqual(gate.names, ['a', 'c'], 'd does not take the slot b freed');
    assert.deepEqual(posted, [], 'b waits for a');
    gate.open('a');
    await settle();
    assert.deepEqual(posted, ['a', 'b']);
    gate.open('c');
    assert.equal(await outcome, 'INTERRUPTED: stopped after the files under way (3 of 5 written)');
    assert.deepEqual(posted, ['a', 'b', 'c']);
  });
});
