/**
 * `sopworks doctor`: probes the configured endpoint(s) — the run's model and every model a role names in
 * company.yaml or `--model-for` — and prints what it found and what to set. Exit 0 when a run would work,
 * 1 with the reasons otherwise; `--json` for scripts.
 */
import path from 'node:path';
import pc from 'picocolors';
import { z } from 'zod';
import {
  type CheckStatus,
  checkModel,
  type ModelOrigin,
  type ModelReport,
  parseModelFor,
  type ResolvedModel,
  readSettings,
  resolveRoleModels,
} from '../../capabilities/model/index.ts';
import { loadCompany } from '../../company/index.ts';
import { describeError } from '../../ground/errors.ts';
import { cleanStrings } from '../../ground/terminal-text.ts';
import { parseRequest } from '../../session/index.ts';
import { EXIT, type Output } from './output.ts';

const DoctorOptions = z.object({
  llm: z
    .string()
    .regex(/^local(:.+)?$/, 'doctor checks the configured endpoint, or the local engine: --llm local[:<name or .gguf path>]')
    .optional(),
  model: z.string().min(1).optional(),
  modelFor: z.array(z.string()).default([]),
  sops: z.string().min(1),
  roles: z.string().min(1),
  json: z.boolean().default(false),
});

/** Doctor's requests are small: a server that takes longer than this to answer one is reported, not waited on. */
const DOCTOR_TIMEOUT_MS = 30_000;

export async function doctorCommand(rawOptions: unknown, io: Output): Promise<number> {
  const options = parseRequest(DoctorOptions, rawOptions, 'doctor');
  const settings = readSettings();
  const problems: string[] = [];
  const reports: ModelReport[] = [];
  if (options.llm) {
    const { checkLocalModel } = await import('./doctor-local.ts');
    reports.push(await checkLocalModel(options.llm === 'local' ? (options.model ?? null) : options.llm.slice('local:'.length), (line) => io.err(line)));
  } else if (!settings.openaiConfigured) {
    problems.push(
      'No model endpoint is configured: run `sopworks init`, or set OPENAI_API_KEY (OpenAI) or OPENAI_BASE_URL (Ollama, vLLM, LM Studio, llama.cpp) in the environment or .env; or check the local engine: sopworks doctor --llm local.',
    );
  } else {
    const company = await loadCompany(options.sops, options.roles);
    const base = { ...settings.model, model: options.model ?? settings.model.model, timeoutMs: Math.min(settings.model.timeoutMs, DOCTOR_TIMEOUT_MS) };
    try {
      const modelFor = parseModelFor(
        options.modelFor,
        company.roles.map((r) => r.id),
      );
      const chains = resolveRoleModels(base, company.roles, modelFor);
      const origins = { companyFile: path.join(options.sops, 'company.yaml'), modelFlag: options.model !== undefined, modelFor, roles: company.roles };
      for (const target of doctorTargets(chains, origins)) {
        reports.push(
          await checkModel({ baseUrl: target.baseUrl, apiKey: target.apiKey, timeoutMs: base.timeoutMs }, target.model, target.roles, target.origin),
        );
      }
    } catch (error) {
      problems.push(describeError(error));
    }
  }
  const works = problems.length === 0 && reports.length > 0 && reports.every((r) => r.works);
  if (options.json) {
    // What a server answered is quoted in the details: every string one clean line, in JSON too.
    io.out(JSON.stringify(cleanStrings({ works, problems, models: reports }), null, 2));
  } else {
    for (const line of renderDoctor(cleanStrings(reports), cleanStrings(problems), works)) io.out(line);
  }
  return works ? EXIT.done : EXIT.failed;
}

interface Target {
  baseUrl: string;
  apiKey: string | null;
  model: string;
  roles: string[];
  origin: ModelOrigin;
}

/** Where the models of this doctor's run are named: the command line, the environment, the company file. */
interface Origins {
  companyFile: string;
  modelFlag: boolean;
  modelFor: Record<string, string>;
  roles: readonly { id: string; model?: unknown }[];
}

/** Every model a role may be asked through, once per endpoint, key and name, with the roles it serves. */
function doctorTargets(chains: Record<string, ResolvedModel[]>, origins: Origins): Target[] {
  const targets = new Map<string, Target>();
  for (const [role, chain] of Object.entries(chains)) {
    chain.forEach(({ settings: s, apiKeyEnv }, i) => {
      const baseUrl = s.baseUrl ?? 'https://api.openai.com/v1';
      const key = `${baseUrl}\u0000${s.apiKey ?? ''}\u0000${s.model}`;
      const target = targets.get(key) ?? { baseUrl, apiKey: s.apiKey, model: s.model, roles: [], origin: originOf(role, i, apiKeyEnv, origins) };
      target.roles.push(i === 0 ? role : `${role} (fallback ${i})`);
      targets.set(key, target);
    });
  }
  return [...targets.values()];
}

/** The setting that named the i-th model of a role's chain, and the variable its key comes from. */
function originOf(role: string, i: number, apiKeyEnv: string | null, origins: Origins): ModelOrigin {
  const ownModel = origins.roles.find((r) => r.id === role)?.model !== undefined;
  const modelSetting =
    i === 0 && origins.modelFor[role] !== undefined
      ? (name: string) => `use --model-for ${role}=${name}`
      : ownModel
        ? (name: string) => `set ${i === 0 ? 'the model' : `fallback ${i}`} of the role ${role} in ${origins.companyFile} to ${name}`
        : origins.modelFlag
          ? (name: string) => `use --model ${name}`
          : (name: string) => `set SOPWORKS_MODEL=${name} (or use --model ${name})`;
  const keyVariable = apiKeyEnv ?? 'OPENAI_API_KEY';
  return {
    modelSetting,
    keyVariable,
    missingKey: apiKeyEnv
      ? `set ${apiKeyEnv}=<your key> — the role ${role} reads its key from it (${origins.companyFile})`
      : 'set OPENAI_API_KEY=<your key> in the environment or .env, or name the variable that holds it: sopworks init --force --api-key-env <NAME>',
  };
}

const MARK: Record<CheckStatus, string> = { ok: pc.green('✓'), warn: pc.yellow('!'), fail: pc.red('✗'), info: pc.dim('·') };

export function renderDoctor(reports: readonly ModelReport[], problems: readonly string[], works: boolean): string[] {
  const lines: string[] = [];
  for (const report of reports) {
    lines.push(`${pc.bold(report.model)} at ${report.baseUrl} ${pc.dim(`— ${report.roles.join(', ')}`)}`);
    const width = Math.max(...report.checks.map((c) => c.name.length));
    for (const check of report.checks) lines.push(`  ${MARK[check.status]} ${check.name.padEnd(width)}  ${check.detail}`);
    for (const advice of report.advice) lines.push(`  ${pc.yellow('→')} ${advice}`);
    lines.push('');
  }
  for (const problem of problems) lines.push(`${pc.red('✗')} ${problem}`);
  lines.push(works ? pc.green('A run would work with these settings.') : pc.red('A run would not work with these settings: see ✗ above.'));
  return lines;
}
