/**
 * The runs a viewer may show: the run folders directly inside one folder (or that folder itself, when
 * it is a run). A run is named in URLs by its folder name, and a name resolves only to a folder whose
 * real path (symlinks followed) sits directly inside the real root — nothing else on disk is reachable.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ChangeRecord } from '../../../capabilities/change/index.ts';
import { describeError, SopworksError } from '../../../ground/errors.ts';
import { isRunFolder, readRun, readRunInfo } from '../read-run.ts';
import type { RunInfo } from '../run-files.ts';
import { type RunStatus, runStatus } from '../run-report.ts';

/** A run name as it may appear in a URL: one path segment, nothing that climbs or hides a separator. */
export const RunName = z
  .string()
  .min(1)
  .max(255)
  .refine((name) => !/[/\\\0]/.test(name) && name !== '.' && name !== '..', 'a run name is one folder name');

export interface RunListing {
  name: string;
  spec: string | null;
  model: string | null;
  startedAt: string | null;
  /** When it last stopped (run.json): with startedAt, the time it took, waiting included. */
  finishedAt: string | null;
  status: RunStatus;
  messages: number;
  /** Time at work of a finished run (waiting not counted). */
  wallMs: number | null;
  /** Model calls and tokens (prompt + completion) of a finished run, as run.json recorded them. */
  calls: number | null;
  tokens: number | null;
  /** Cost in US dollars, when the run could price every call. */
  costUsd: number | null;
  /** Why the run could not be read, if it could not. */
  problem: string | null;
}

/** A run's place among the others: the run a change was made of, and the changes made of a run. */
export interface RunRelations {
  /** For a change run: the name of its base's run here, when the repository it changed is one of these runs. */
  changeBase: string | null;
  /** The change runs here made of this run, newest first. */
  changes: { name: string; branch: string; outcome: string | null; startedAt: string | null }[];
}

export class RunNotFound extends Error {}

/** What the list shows of a run's size: read from run.json (written whole when the run ends), so listing stays cheap. */
function usageFacts(info: RunInfo | null): Pick<RunListing, 'wallMs' | 'calls' | 'tokens' | 'costUsd'> {
  const total = info?.usage?.total;
  const cost = total?.costUsd;
  return {
    wallMs: info?.wallMs ?? null,
    calls: total?.calls ?? null,
    tokens: total ? total.promptTokens + total.completionTokens : null,
    costUsd: typeof cost === 'number' ? cost : null,
  };
}

export class RunCatalog {
  private constructor(
    /** The real path of the folder being served. */
    readonly root: string,
    /** When the folder itself is a run, its name; the catalog then holds that run only. */
    private readonly single: string | null,
  ) {}

  static async open(dir: string): Promise<RunCatalog> {
    const real = await fs.realpath(dir).catch(() => null);
    const stat = real ? await fs.stat(real) : null;
    if (!real || !stat?.isDirectory()) {
      throw new SopworksError('USAGE', `${dir} is not a folder.`, {
        hint: 'Give the folder your runs are in (default: output/), or the folder of one run.',
      });
    }
    return new RunCatalog(real, (await isRunFolder(real)) ? path.basename(real) : null);
  }

  /** Whether the catalog is a folder of runs (a new run made in it shows here), not one run. */
  get isFolder(): boolean {
    return this.single === null;
  }

  /** The name a run folder directly inside the root goes by; null for any other folder. */
  nameOf(dir: string): string | null {
    if (this.single !== null) return dir === this.root ? this.single : null;
    return path.dirname(dir) === this.root ? path.basename(dir) : null;
  }

  /** The folder of the run called `name`; RunNotFound for anything that is not one of the catalog's runs. */
  async resolve(name: string): Promise<string> {
    const parsed = RunName.safeParse(name);
    if (!parsed.success) throw new RunNotFound(`"${name}" is not a run name`);
    if (this.single !== null) {
      if (parsed.data !== this.single) throw new RunNotFound(`no run "${name}" here`);
      return this.root;
    }
    const real = await fs.realpath(path.join(this.root, parsed.data)).catch(() => null);
    // A symlink may name a run only if it leads to a folder directly inside the root.
    if (!real || path.dirname(real) !== this.root || !(await isRunFolder(real))) {
      throw new RunNotFound(`no run "${name}" here`);
    }
    return real;
  }

  /** The catalog's runs by name, with their folders. */
  async runs(): Promise<{ name: string; dir: string }[]> {
    if (this.single !== null) return [{ name: this.single, dir: this.root }];
    const entries = await fs.readdir(this.root, { withFileTypes: true });
    const runs: { name: string; dir: string }[] = [];
    for (const entry of entries) {
      if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
      const dir = await this.resolve(entry.name).catch(() => null);
      if (dir) runs.push({ name: entry.name, dir });
    }
    return runs;
  }

  /** Which run here a change run changed, and which change runs here changed this one (from their run.json). */
  async relations(dir: string, changedRepo: string | null): Promise<RunRelations> {
    const real = async (folder: string) => fs.realpath(folder).catch(() => null);
    const base = changedRepo === null ? null : await real(changedRepo);
    const changes: RunRelations['changes'] = [];
    for (const run of await this.runs()) {
      const info = await readRunInfo(run.dir);
      const change = ChangeRecord.safeParse((info as { change?: unknown } | null)?.change);
      if (change.success && (await real(change.data.repo)) === dir) {
        changes.push({ name: run.name, branch: change.data.branch, outcome: info?.outcome ?? null, startedAt: info?.startedAt ?? null });
      }
    }
    changes.sort((a, b) => (b.startedAt ?? '').localeCompare(a.startedAt ?? ''));
    return { changeBase: base === null ? null : this.nameOf(base), changes };
  }

  /** Every run with what the list page shows, newest first. */
  async list(): Promise<RunListing[]> {
    const listings = await Promise.all(
      (await this.runs()).map(async ({ name, dir }): Promise<RunListing> => {
        try {
          const record = await readRun(dir, { exchanges: false });
          return {
            name,
            spec: record.info?.spec ?? null,
            model: record.info?.model ?? null,
            startedAt: record.info?.startedAt ?? record.messages[0]?.createdAt ?? null,
            finishedAt: record.info?.finishedAt ?? null,
            status: runStatus(record),
            messages: record.messages.length,
            ...usageFacts(record.info),
            problem: null,
          };
        } catch (error) {
          const status: RunStatus = {
            finished: false,
            running: false,
            outcome: null,
            reason: null,
            phase: { phase: 'cut-off', label: 'unreadable', continuable: false },
            resumeAt: null,
          };
          return {
            name,
            spec: null,
            model: null,
            startedAt: null,
            finishedAt: null,
            status,
            messages: 0,
            wallMs: null,
            calls: null,
            tokens: null,
            costUsd: null,
            problem: describeError(error),
          };
        }
      }),
    );
    return listings.sort((a, b) => (b.startedAt ?? '').localeCompare(a.startedAt ?? '') || a.name.localeCompare(b.name));
  }
}
