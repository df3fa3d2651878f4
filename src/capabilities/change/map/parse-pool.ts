/**
 * Parses many files on every core: worker threads (parse-worker.ts), each with its own tree-sitter, fed
 * batches of files as they finish the last. Parsing is what a cold map costs (Go's standard library, 3,000
 * files: ~5 s of CPU of the map's ~6.5), so it is spread out; a handful of files is parsed here, where no
 * worker has to start.
 * A pool that cannot start (no worker threads) parses here too: slower, same result.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { type Parsed, type ParseJob, parseOne } from './parse-one.ts';
import { parseWorkerEntry } from './parse-worker-entry.ts';

export type { Parsed, ParseJob };

/** Fewer files than this are parsed in this thread: starting a worker (its modules, the grammars) costs more. */
const IN_THREAD = 150;
const BATCH = 24;
const MAX_WORKERS = 4;

export async function parseFiles(jobs: readonly ParseJob[]): Promise<Parsed[]> {
  const workers = Math.min(MAX_WORKERS, os.availableParallelism(), Math.floor(jobs.length / IN_THREAD) + 1);
  if (workers <= 1) return inThread(jobs);
  try {
    return await parseInWorkers(jobs, workers);
  } catch {
    return inThread(jobs);
  }
}

async function inThread(jobs: readonly ParseJob[]): Promise<Parsed[]> {
  const results: Parsed[] = [];
  for (const job of jobs) results.push(await parseOne(job));
  return results;
}

/** The files parsed by `count` workers (no fallback: a test calls it to know the workers work). */
export async function parseInWorkers(jobs: readonly ParseJob[], count: number): Promise<Parsed[]> {
  const entry = await parseWorkerEntry();
  const results: Parsed[] = new Array(jobs.length).fill(null);
  const pool = Array.from({ length: count }, () => ('code' in entry ? new Worker(entry.code, { eval: true }) : new Worker(entry.url)));
  let next = 0;
  let running = 0;
  return new Promise<Parsed[]>((resolve, reject) => {
    const finish = (error?: unknown) => {
      for (const worker of pool) void worker.terminate();
      if (error) reject(error);
      else resolve(results);
    };
    const feed = (worker: Worker) => {
      if (next >= jobs.length) {
        if (running === 0) finish();
        return;
      }
      const start = next;
      const batch = jobs.slice(start, start + BATCH);
      next += batch.length;
      running++;
      worker.once('message', (tags: Parsed[]) => {
        tags.forEach((t, i) => (results[start + i] = t));
        running--;
        feed(worker);
      });
      worker.postMessage(batch);
    };
    for (const worker of pool) {
      worker.once('error', finish);
      feed(worker);
    }
  });
}
