/**
 * A model per role. The org chart (sops/company.yaml) may give a role its own provider settings — model,
 * base URL, the variable holding its key, temperature, output limit, structured-output mode — and models
 * to fall back to; `--model-for role=model` overrides the model per run. Everything not named is taken
 * from the run's settings (the environment / .env and --model).
 */
import { z } from 'zod';
import { SopworksError } from '../../ground/errors.ts';
import type { ModelSettings } from './settings.ts';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const Price = z.object({ input: z.number().min(0), output: z.number().min(0) }).strict();

/** The settings a model in company.yaml may carry beside its name; what is left out is the run's. */
const ModelFields = {
  model: z.string().min(1),
  baseUrl: z
    .string()
    .regex(/^https?:\/\/[^/\s]+/, 'must be an http(s) URL such as http://localhost:11434/v1')
    .optional(),
  apiKeyEnv: z.string().regex(ENV_NAME, 'must be the name of an environment variable, e.g. ARCHITECT_API_KEY').optional(),
  temperature: z.number().min(0).max(2).optional(),
  maxOutputTokens: z.number().int().min(1).optional(),
  structuredOutput: z.enum(['json_schema', 'json_object', 'off']).optional(),
  /** US dollars per million tokens, for a model whose price is not built in (a local one, say). */
  price: Price.optional(),
};
const ModelName = z.string().min(1, 'a model name is needed');

/** One model's settings as company.yaml writes them: a name alone, or the name with what differs. */
export const ModelEntrySchema = z.union([ModelName, z.object(ModelFields).strict()]);
export type ModelEntry = z.infer<typeof ModelEntrySchema>;

/** A role's `model:` in company.yaml: the model it uses, and the ones to try when that one cannot answer. */
export const RoleModelSchema = z.union([
  ModelName,
  z.object({ ...ModelFields, fallbacks: z.array(ModelEntrySchema).max(8, 'at most 8 fallbacks').optional() }).strict(),
]);
export type RoleModel = z.infer<typeof RoleModelSchema>;

/** What run.json keeps of a role's models (never a key: only the name of the variable holding it). */
export const RoleModelRecord = z.array(
  z.object({
    model: z.string(),
    baseUrl: z.string().nullable(),
    apiKeyEnv: z.string().nullable(),
    temperature: z.number().nullable(),
    maxOutputTokens: z.number().int(),
    structuredOutput: z.enum(['json_schema', 'json_object', 'off']),
    price: Price.nullable().default(null),
  }),
);
export type RoleModelRecord = z.infer<typeof RoleModelRecord>;

/** Resolved settings of one model in a role's chain, with where its key comes from. */
export interface ResolvedModel {
  settings: ModelSettings;
  /** The variable the key was read from; null when the run's own key (OPENAI_API_KEY) is used. */
  apiKeyEnv: string | null;
  /** The price company.yaml gives this model; null to use the settings' or the built-in list. */
  price: { input: number; output: number } | null;
}

/** `--model-for architect=gpt-4o` (repeatable) → { architect: 'gpt-4o' }, checked against the hired roles. */
export function parseModelFor(values: readonly string[], roles: readonly string[]): Record<string, string> {
  const chosen: Record<string, string> = {};
  for (const value of values) {
    const match = /^([a-z][a-z0-9-]*)=(.+)$/.exec(value.trim());
    if (!match) {
      throw new SopworksError('USAGE', `--model-for "${value}" is not <role>=<model>.`, {
        hint: `For example --model-for architect=gpt-4o; roles: ${roles.join(', ')}.`,
      });
    }
    const [, role, model] = match as unknown as [string, string, string];
    if (!roles.includes(role)) {
      throw new SopworksError('USAGE', `--model-for names the role "${role}", which this company does not hire.`, {
        hint: `Roles hired (sops/company.yaml): ${roles.join(', ')}.`,
      });
    }
    if (chosen[role] !== undefined && chosen[role] !== model.trim()) {
      throw new SopworksError('USAGE', `--model-for gives the role "${role}" two models ("${chosen[role]}" and "${model.trim()}").`, {
        hint: 'Give each role one model.',
      });
    }
    chosen[role] = model.trim();
  }
  return chosen;
}

/**
 * Each role's chain of models: its own (or the run's), then its fallbacks. A role with nothing of its own
 * uses the run's settings; `modelFor` replaces the first model's name and keeps the rest of its settings.
 */
export function resolveRoleModels(
  base: ModelSettings,
  roles: readonly { id: string; model?: RoleModel | undefined }[],
  modelFor: Record<string, string>,
  env: NodeJS.ProcessEnv = process.env,
): Record<string, ResolvedModel[]> {
  const chains: Record<string, ResolvedModel[]> = {};
  for (const role of roles) {
    const own = role.model === undefined ? [] : typeof role.model === 'string' ? [role.model] : [role.model, ...(role.model.fallbacks ?? [])];
    const entries: ModelEntry[] = own.length > 0 ? own : [base.model];
    const resolved = entries.map((entry) => resolveEntry(base, entry, env, role.id));
    const override = modelFor[role.id];
    // Another model than company.yaml names: its price there no longer applies.
    if (override !== undefined) resolved[0] = { ...resolved[0]!, settings: { ...resolved[0]!.settings, model: override }, price: null };
    chains[role.id] = resolved;
  }
  return chains;
}

function resolveEntry(base: ModelSettings, entry: ModelEntry, env: NodeJS.ProcessEnv, role: string): ResolvedModel {
  if (typeof entry === 'string') return { settings: { ...base, model: entry }, apiKeyEnv: null, price: null };
  let apiKey = base.apiKey;
  if (entry.apiKeyEnv !== undefined) {
    const value = env[entry.apiKeyEnv]?.trim();
    if (!value) {
      throw new SopworksError(
        'CONFIG_INVALID',
        `The role "${role}" takes its API key from ${entry.apiKeyEnv} (sops/company.yaml), and ${entry.apiKeyEnv} is not set.`,
        {
          hint: `Set ${entry.apiKeyEnv} in the environment or .env, or remove apiKeyEnv from the role's model to use OPENAI_API_KEY.`,
        },
      );
    }
    apiKey = value;
  }
  return {
    settings: {
      ...base,
      model: entry.model,
      apiKey,
      baseUrl: entry.baseUrl ?? base.baseUrl,
      temperature: entry.temperature ?? base.temperature,
      maxOutputTokens: entry.maxOutputTokens ?? base.maxOutputTokens,
      structuredOutput: entry.structuredOutput ?? base.structuredOutput,
    },
    apiKeyEnv: entry.apiKeyEnv ?? null,
    price: entry.price ?? null,
  };
}

/** What run.json keeps, so `resume` asks the same models. */
export function roleModelsRecord(chains: Record<string, ResolvedModel[]>): Record<string, RoleModelRecord> {
  return Object.fromEntries(
    Object.entries(chains).map(([role, chain]) => [
      role,
      chain.map(({ settings, apiKeyEnv, price }) => ({
        model: settings.model,
        baseUrl: settings.baseUrl,
        apiKeyEnv,
        temperature: settings.temperature,
        maxOutputTokens: settings.maxOutputTokens,
        structuredOutput: settings.structuredOutput,
        price,
      })),
    ]),
  );
}

/** The chains run.json kept, turned back into entries (keys read again from the environment). */
export function roleModelsFromRecord(record: Record<string, RoleModelRecord>): { id: string; model: RoleModel }[] {
  return Object.entries(record).map(([id, chain]) => {
    const [first, ...rest] = chain.map((m) => ({
      model: m.model,
      ...(m.baseUrl ? { baseUrl: m.baseUrl } : {}),
      ...(m.apiKeyEnv ? { apiKeyEnv: m.apiKeyEnv } : {}),
      ...(m.temperature !== null ? { temperature: m.temperature } : {}),
      maxOutputTokens: m.maxOutputTokens,
      structuredOutput: m.structuredOutput,
      ...(m.price ? { price: m.price } : {}),
    }));
    return { id, model: { ...first!, ...(rest.length > 0 ? { fallbacks: rest } : {}) } };
  });
}

/** A short label of one model, as progress lines and the exchange log name it. */
export const modelLabel = (settings: Pick<ModelSettings, 'model' | 'baseUrl'>): string =>
  `${settings.model}${settings.baseUrl ? ` at ${settings.baseUrl}` : ''}`;
