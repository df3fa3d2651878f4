/**
 * The last reading of each run, kept while its files stay as they were: a page's first load, its
 * event-driven refresh, its paged exchange list, its time chart and its search all read the same run,
 * and a run of thousands of exchanges takes a while to parse. The key is the run watcher's signature
 * (sizes and times of the run's files, its lock owner), so any change on disk is read afresh.
 */
import { type LoadedRun, loadRun } from '../load-run.ts';
import { buildRunPage, type RunPage } from '../run-page.ts';
import { runSignature } from './run-watcher.ts';

interface Entry {
  signature: string;
  run: Promise<LoadedRun>;
  page: Promise<RunPage> | null;
}

export class RunCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly capacity = 8) {}

  private entry(dir: string): Entry {
    const signature = runSignature(dir);
    const cached = this.entries.get(dir);
    if (cached && cached.signature === signature) return cached;
    const fresh: Entry = { signature, run: loadRun(dir), page: null };
    // A failed read is not kept: the next request tries again.
    fresh.run.catch(() => this.entries.get(dir) === fresh && this.entries.delete(dir));
    this.entries.delete(dir);
    this.entries.set(dir, fresh);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return fresh;
  }

  run(dir: string): Promise<LoadedRun> {
    return this.entry(dir).run;
  }

  page(dir: string): Promise<RunPage> {
    const entry = this.entry(dir);
    entry.page ??= entry.run.then(buildRunPage);
    entry.page.catch(() => (entry.page = null));
    return entry.page;
  }
}
