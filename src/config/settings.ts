/**
 * Settings from the environment (and `.env`), validated once. Every knob is documented in .env.example.
 */
import { z } from 'zod';
import { SopworksError } from '../errors.ts';

const intFrom = (fallback: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0) {
        ctx.addIssue({ code: 'custom', message: `must be a whole number ≥ 0, got "${v}"` });
        return z.NEVER;
      }
      return n;
    });

/** An empty value (as in a copied .env.example) means "not set". */
const blankAsUnset = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema);

const EnvSchema = z.object({
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: blankAsUnset(
    z.string().regex(/^https?:\/\/[^/\s]+/, 'must be an http(s) URL such as http://localhost:11434/v1').optional(),
  ),
  SOPWORKS_MODEL: z.string().optional(),
  SOPWORKS_STRUCTURED_OUTPUT: blankAsUnset(
    z.enum(['json_schema', 'json_object', 'off'], { message: 'must be json_schema, json_object or off' }).optional(),
  ),
  SOPWORKS_MAX_RETRIES: intFrom(2),
  SOPWORKS_TIMEOUT_MS: intFrom(120_000),
  SOPWORKS_MAX_REPAIRS: intFrom(2),
  SOPWORKS_SCRIPTED_LATENCY_MS: intFrom(0),
  SOPWORKS_TEMPERATURE: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return null;
      const n = Number(v);
      if (Number.isNaN(n) || n < 0 || n > 2) {
        ctx.addIssue({ code: 'custom', message: `must be a number from 0 to 2, got "${v}"` });
        return z.NEVER;
      }
      return n;
    }),
});

export interface ModelSettings {
  model: string;
  apiKey: string | null;
  baseUrl: string | null;
  structuredOutput: 'json_schema' | 'json_object' | 'off';
  maxRetries: number;
  timeoutMs: number;
  temperature: number | null;
}

export interface Settings {
  model: ModelSettings;
  /** Re-asks after an invalid reply, per call. */
  maxRepairs: number;
  scriptedLatencyMs: number;
  /** True when an OpenAI-compatible endpoint is configured (a key or a base URL). */
  openaiConfigured: boolean;
}

export const DEFAULT_MODEL = 'gpt-4o-mini';

export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new SopworksError('CONFIG_INVALID', `Invalid settings in the environment or .env:\n${issues}`, {
      hint: 'See .env.example for every setting and its allowed values.',
    });
  }
  const e = parsed.data;
  const apiKey = e.OPENAI_API_KEY?.trim() || null;
  const baseUrl = e.OPENAI_BASE_URL?.trim() || null;
  return {
    model: {
      model: e.SOPWORKS_MODEL?.trim() || DEFAULT_MODEL,
      apiKey,
      baseUrl,
      structuredOutput: e.SOPWORKS_STRUCTURED_OUTPUT ?? 'json_schema',
      maxRetries: e.SOPWORKS_MAX_RETRIES,
      timeoutMs: e.SOPWORKS_TIMEOUT_MS,
      temperature: e.SOPWORKS_TEMPERATURE,
    },
    maxRepairs: e.SOPWORKS_MAX_REPAIRS,
    scriptedLatencyMs: e.SOPWORKS_SCRIPTED_LATENCY_MS,
    openaiConfigured: apiKey !== null || baseUrl !== null,
  };
}
