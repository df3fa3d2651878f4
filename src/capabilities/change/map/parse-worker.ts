/** The work of one parse-pool worker: read and tag the files it is sent, answer with what each gave, in order. */
import { parentPort } from 'node:worker_threads';
import { type Parsed, type ParseJob, parseOne } from './parse-one.ts';

parentPort?.on('message', async (jobs: ParseJob[]) => {
  const results: Parsed[] = [];
  for (const job of jobs) results.push(await parseOne(job));
  parentPort?.postMessage(results);
});
