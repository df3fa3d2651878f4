/**
 * A worker's limits, from its flags: the folders runs may be made in (`--runs-root`),
 * the folders companies and scenarios may be read from (`--company-root`, which must exist and may not
 * lie under a runs root), whether generated code may run unsandboxed, and the endpoints and models a
 * run may use — the worker's own endpoint (OPENAI_BASE_URL, else OpenAI's), plus `--allow-base-url`.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { SopworksError } from '../../ground/errors.ts';
import { normalBaseUrl, realPathOf, type WorkerLimits } from './job-admission.ts';

export interface WorkerLimitFlags {
  runsRoots: string[];
  companyRoots: string[];
  allowUnsandboxed: boolean;
  allowBaseUrls: string[];
  allowModels: string[];
  /** The worker's own endpoint (settings), null for OpenAI's. */
  ownBaseUrl: string | null;
}

const OPENAI = 'https://api.openai.com/v1';

export async function resolveWorkerLimits(flags: WorkerLimitFlags): Promise<WorkerLimits> {
  // A runs root may not exist yet (the first run makes it): its nearest folder that does is resolved.
  const runsRoots = await Promise.all(flags.runsRoots.map((root) => realPathOf(root)));
  const companyRoots: string[] = [];
  for (const root of flags.companyRoots) {
    const real = await fs.realpath(root).catch(() => null);
    if (real === null || !(await fs.stat(real)).isDirectory())
      throw new SopworksError('USAGE', `--company-root ${root} is not a folder.`, {
        hint: 'Give the folder that holds the SOP and role folders jobs may name.',
      });
    const under = runsRoots.find((runs) => real === runs || real.startsWith(runs + path.sep));
    if (under)
      throw new SopworksError('USAGE', `--company-root ${real} lies under the runs root ${under}, where generated code writes.`, {
        hint: 'Keep SOPs, roles and scenarios in a folder of their own, outside every --runs-root.',
      });
    companyRoots.push(real);
  }
  for (const url of flags.allowBaseUrls) {
    if (!/^https?:\/\/[^/\s]+/.test(url))
      throw new SopworksError('USAGE', `--allow-base-url "${url}" is not an http(s) URL.`, { hint: 'For example --allow-base-url http://10.0.0.5:11434/v1' });
  }
  return {
    runsRoots,
    companyRoots,
    allowUnsandboxed: flags.allowUnsandboxed,
    baseUrls: [...new Set([flags.ownBaseUrl ?? OPENAI, ...flags.allowBaseUrls].map(normalBaseUrl))],
    models: flags.allowModels.length > 0 ? flags.allowModels : null,
  };
}
