/** The work of one parse-pool worker: read and tag the files it is sent, answer with their tags in order. */
import { parentPort } from 'node:worker_threads';
import { fileTags, type FileTags } from './file-tags.ts';
import type { ParseJob } from './parse-pool.ts';
import { readSource } from './read-source.ts';

parentPort?.on('message', async (jobs: ParseJob[]) => {
  const tags: (FileTags | null)[] = [];
  for (const job of jobs) {
    const text = await readSource(job.file);
    tags.push(text === null ? null : await fileTags(job.language, text));
  }
  parentPort?.postMessage(tags);
});
