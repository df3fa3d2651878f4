/**
 * What a worker lets a job do, whoever signed it: a job names folders and a model, and the worker —
 * not the job — decides what it may reach. A job's run folder (`out`/`name`) must lie under one of the
 * worker's runs roots; its company (`sops`, `roles`) and scenario under one of its company roots and
 * never under a runs root (generated code writes there: a company folder it wrote would choose the
 * models a worker's key is sent to). Paths are compared after every symbolic link is resolved. A job
 * cannot turn on what the worker did not: `--allow-unsandboxed`, an endpoint other than the worker's
 * own or those it allows (`--allow-base-url`), a model outside `--allow-model` when that is given. A
 * run resumed from its folder is held to the same limits: what its run.json names is checked too.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { type RoleModel, RoleModelSchema, roleModelsFromRecord } from '../../capabilities/model/index.ts';
import { STATE_DIR } from '../../capabilities/repository/index.ts';
import { readRunRecord } from '../../company/index.ts';
import { companyFileSchema } from '../../engine/steps/index.ts';
import { checkProjectName } from '../../ground/files/index.ts';
import type { JobData } from './job-data.ts';
import { QUEUE_SECRET_ENV } from './job-signature.ts';

export interface WorkerLimits {
  /** Where runs may be made (real paths). */
  runsRoots: string[];
  /** Where SOP folders, role folders and scenarios may be read from (real paths). */
  companyRoots: string[];
  allowUnsandboxed: boolean;
  /** Endpoints a run may call with the worker's keys: the worker's own and those allowed (normalised). */
  baseUrls: string[];
  /** Models a run may ask; null: any at an allowed endpoint. */
  models: string[] | null;
}

/** Why a job is refused. */
export class JobRefused extends Error {}

const inside = (file: string, root: string): boolean => file === root || file.startsWith(root.endsWith(path.sep) ? root : root + path.sep);

/** A path with its links resolved; for one not made yet, its nearest existing folder's real path and the rest. */
export async function realPathOf(file: string): Promise<string> {
  const absolute = path.resolve(file);
  const rest: string[] = [];
  let at = absolute;
  for (;;) {
    const real = await fs.realpath(at).catch(() => null);
    if (real !== null) return path.join(real, ...rest.reverse());
    const parent = path.dirname(at);
    if (parent === at) return absolute;
    rest.push(path.basename(at));
    at = parent;
  }
}

/** `http://Host:8080/v1/` and `http://host:8080/v1` are one endpoint. */
export function normalBaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, '')}`;
  } catch {
    return url;
  }
}

async function underRuns(what: string, file: string, limits: WorkerLimits): Promise<string> {
  if (!path.isAbsolute(file)) throw new JobRefused(`its ${what} "${file}" is not an absolute path`);
  const real = await realPathOf(file);
  if (!limits.runsRoots.some((root) => inside(real, root)))
    throw new JobRefused(`its ${what} ${real} is outside this worker's runs roots (${limits.runsRoots.join(', ')}): start the worker with --runs-root for it`);
  return real;
}

async function underCompany(what: string, file: string, limits: WorkerLimits): Promise<void> {
  if (!path.isAbsolute(file)) throw new JobRefused(`its ${what} "${file}" is not an absolute path`);
  const real = await fs.realpath(file).catch(() => null);
  if (real === null) throw new JobRefused(`its ${what} ${file} does not exist on this worker`);
  if (limits.runsRoots.some((root) => inside(real, root)))
    throw new JobRefused(`its ${what} ${real} lies under a runs root, where generated code writes: a company and a scenario come from a company root`);
  if (!limits.companyRoots.some((root) => inside(real, root)))
    throw new JobRefused(
      `its ${what} ${real} is outside this worker's company roots (${limits.companyRoots.join(', ')}): start the worker with --company-root for it`,
    );
}

/** Each endpoint and model a role's chain names must be one the worker allows. */
function checkModels(roles: readonly { id: string; model?: RoleModel | undefined }[], jobModels: readonly string[], limits: WorkerLimits): void {
  const models: string[] = [...jobModels];
  for (const role of roles) {
    if (role.model === undefined) continue;
    const chain = typeof role.model === 'string' ? [role.model] : [role.model, ...(role.model.fallbacks ?? [])];
    for (const entry of chain) {
      const [model, baseUrl] = typeof entry === 'string' ? [entry, undefined] : [entry.model, entry.baseUrl];
      models.push(model);
      if (typeof entry !== 'string' && entry.apiKeyEnv === QUEUE_SECRET_ENV)
        throw new JobRefused(`the role "${role.id}" would send the queue's secret (${QUEUE_SECRET_ENV}) as its API key`);
      if (baseUrl !== undefined && !limits.baseUrls.includes(normalBaseUrl(baseUrl)))
        throw new JobRefused(
          `the role "${role.id}" would send this worker's key to ${baseUrl}, which it does not allow (its endpoint: ${limits.baseUrls.join(', ')}): start the worker with --allow-base-url for it`,
        );
    }
  }
  const refused = limits.models === null ? undefined : models.find((m) => !limits.models!.includes(m));
  if (refused !== undefined)
    throw new JobRefused(`it asks the model "${refused}", which this worker does not allow (--allow-model: ${limits.models!.join(', ')})`);
}

/** Throws JobRefused, saying why, unless the job stays within what this worker allows. */
export async function admitJob(data: JobData, limits: WorkerLimits): Promise<void> {
  try {
    checkProjectName(data.name);
  } catch {
    throw new JobRefused(`its project name "${data.name}" is not a folder name (lower-case letters, digits, . _ -)`);
  }
  await underRuns('output folder', data.out, limits);
  await underRuns('run folder', path.join(data.out, data.name), limits);
  await underCompany('SOP folder', data.sops, limits);
  await underCompany('roles folder', data.roles, limits);
  if (data.scenario !== null) await underCompany('scenario', data.scenario, limits);
  if (data.allowUnsandboxed && !limits.allowUnsandboxed)
    throw new JobRefused('it asks to run generated code unsandboxed, which this worker was not started to allow (worker --allow-unsandboxed)');
  // `--model-for role=model` asks that model of the worker's endpoint too.
  const asked = [data.model ?? null, ...(data.flags?.modelFor ?? []).map((entry) => entry.slice(entry.indexOf('=') + 1).trim())];
  checkModels(
    await companyRoles(data.sops),
    asked.filter((m): m is string => Boolean(m)),
    limits,
  );
  const state = path.join(data.out, data.name, STATE_DIR);
  if (await fs.stat(path.join(state, 'run.json')).catch(() => null)) await admitRecord(state, limits);
}

/**
 * The roles company.yaml hires, with their models — only that file is read (the run validates the
 * whole company when it starts, with the same parser and schema). One that does not load is refused:
 * its models could not be checked.
 */
const CompanyModels = companyFileSchema(RoleModelSchema);

async function companyRoles(sopsDir: string): Promise<{ id: string; model?: RoleModel | undefined }[]> {
  const file = path.join(sopsDir, 'company.yaml');
  let company: ReturnType<typeof CompanyModels.safeParse>;
  try {
    company = CompanyModels.safeParse(parse(await fs.readFile(file, 'utf8')));
  } catch (error) {
    throw new JobRefused(`its company ${file} does not load (${(error as Error).message.split('\n')[0]}): \`sopworks sop validate\` says why`);
  }
  if (!company.success) throw new JobRefused(`its company ${file} does not load: \`sopworks sop validate --sops ${sopsDir}\` says why`);
  return company.data.roles as { id: string; model?: RoleModel | undefined }[];
}

/** A run the worker would resume: what its record names (SOPs, roles, scenario, each role's models) within the limits too. */
async function admitRecord(stateDir: string, limits: WorkerLimits): Promise<void> {
  const record = await readRunRecord(stateDir).catch(() => null);
  if (record === null) return;
  await underCompany('SOP folder (in its run.json)', record.sops, limits);
  await underCompany('roles folder (in its run.json)', record.roles, limits);
  if (record.llm.kind === 'local') throw new JobRefused('its run.json names a local model file: a worker asks its own endpoint or a scenario');
  if (record.llm.kind === 'scripted') await underCompany('scenario (in its run.json)', record.llm.file, limits);
  else checkModels(record.llm.roles ? roleModelsFromRecord(record.llm.roles) : [], record.llm.model ? [record.llm.model] : [], limits);
}
