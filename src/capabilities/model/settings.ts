/**
 * Settings from the environment (and `.env`), validated once. Every knob is documented in .env.example.
 */
import { z } from 'zod';
import { blankAsUnset, numberSetting, parseEnvironment } from '../../ground/env-settings.ts';
import { DEFAULT_LIMITS, MODE_SETTINGS, type ModeSetting, type SandboxLimits } from '../../host/sandbox/index.ts';
import type { Price } from './prices.ts';
import type { PromptCacheKeySetting } from './providers/prompt-cache-key.ts';

const intFrom = (fallback: number) => numberSetting(fallback, (n) => Number.isInteger(n) && n >= 0, 'a whole number ≥ 0');

/** A whole number of at least `min`, for bounds where 0 means nothing sensible. */
const intAtLeast = (min: number, fallback: number) => intFrom(fallback).refine((n) => n >= min, { message: `must be at least ${min}` });

/** A price in US dollars per million tokens; unset when blank. */
const usdPerMillion = numberSetting(null, (n) => Number.isFinite(n) && n >= 0, 'US dollars per million tokens (a number ≥ 0)');

const EnvSchema = z.object({
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: blankAsUnset(
    z
      .string()
      .regex(/^https?:\/\/[^/\s]+/, 'must be an http(s) URL such as http://localhost:11434/v1')
      .optional(),
  ),
  SOPWORKS_MODEL: z.string().optional(),
  SOPWORKS_STRUCTURED_OUTPUT: blankAsUnset(z.enum(['json_schema', 'json_object', 'off'], { message: 'must be json_schema, json_object or off' }).optional()),
  SOPWORKS_PROMPT_CACHE_KEY: blankAsUnset(z.enum(['auto', 'on', 'off'], { message: 'must be auto, on or off' }).optional()),
  SOPWORKS_MAX_RETRIES: intFrom(4),
  SOPWORKS_TIMEOUT_MS: intFrom(120_000),
  SOPWORKS_RETRY_BASE_MS: intFrom(1_000),
  SOPWORKS_RETRY_MAX_MS: intFrom(30_000),
  SOPWORKS_WAIT_FOR_QUOTA: blankAsUnset(z.enum(['true', 'false', '1', '0'], { message: 'must be true or false' }).optional()),
  SOPWORKS_MAX_CONTINUATIONS: intFrom(2),
  SOPWORKS_MAX_CUT_OFF_TOKENS: intFrom(0),
  SOPWORKS_MAX_REPAIRS: intFrom(2),
  SOPWORKS_SCRIPTED_LATENCY_MS: intFrom(0),
  SOPWORKS_PRICE_INPUT: usdPerMillion,
  SOPWORKS_PRICE_OUTPUT: usdPerMillion,
  SOPWORKS_PRICE_CACHED_INPUT: usdPerMillion,
  SOPWORKS_MAX_OUTPUT_TOKENS: intAtLeast(1, 4096),
  SOPWORKS_CONTEXT_WINDOW: intFrom(0),
  SOPWORKS_SANDBOX: blankAsUnset(z.enum(MODE_SETTINGS, { message: `must be ${MODE_SETTINGS.join(', ')}` }).optional()),
  SOPWORKS_SANDBOX_CPU_SECONDS: intAtLeast(1, DEFAULT_LIMITS.cpuSeconds),
  SOPWORKS_SANDBOX_MEMORY_MB: intAtLeast(16, DEFAULT_LIMITS.memoryMb),
  SOPWORKS_SANDBOX_MAX_PROCESSES: intAtLeast(8, DEFAULT_LIMITS.maxProcesses),
  SOPWORKS_SANDBOX_OUTPUT_KB: intAtLeast(1, DEFAULT_LIMITS.outputKb),
  /** Read by src/apps/tracing/run-tracing.ts (with the standard OTEL_* variables); checked here. */
  SOPWORKS_OTEL_ENDPOINT: blankAsUnset(
    z
      .string()
      .regex(/^https?:\/\/[^/\s]+/, 'must be an http(s) URL such as http://localhost:4318/v1/traces')
      .optional(),
  ),
  SOPWORKS_OTEL_CAPTURE_CONTENT: blankAsUnset(z.enum(['true', 'false', '1', '0'], { message: 'must be true or false' }).optional()),
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
  /** Whether requests carry OpenAI's prompt_cache_key, per run and role (providers/prompt-cache-key.ts). */
  promptCacheKey: PromptCacheKeySetting;
  maxRetries: number;
  /** The first backoff before a retry; it doubles with each retry. */
  retryBaseMs: number;
  /** The longest wait before a retry, a Retry-After included. */
  retryMaxMs: number;
  /** A limit that resets later than `retryMaxMs` (a quota, a daily limit) is waited out instead of stopping the run paused. */
  waitForQuota: boolean;
  /** Requests to continue a reply cut off at the output limit (finish_reason "length"). */
  maxContinuations: number;
  /** Completion tokens one step may spend on cut-off replies — continuations and re-asks together. */
  maxCutOffTokens: number;
  /** Sent as max_tokens: the largest reply one request may produce (the budget check relies on it). */
  maxOutputTokens: number;
  timeoutMs: number;
  temperature: number | null;
}

export interface Settings {
  model: ModelSettings;
  /** Re-asks after an invalid reply, per call. */
  maxRepairs: number;
  /** The price set for the model (both halves), overriding the known list; null when not set. */
  price: Price | null;
  /** The largest reply a call may produce, for the budget check before every call. */
  maxOutputTokens: number;
  scriptedLatencyMs: number;
  /** How generated code runs: the sandbox mode and its limits (the wall clock is the SOP's or the command's). */
  sandbox: { mode: ModeSetting; limits: Omit<SandboxLimits, 'wallSeconds'> };
  /** True when an OpenAI-compatible endpoint is configured (a key or a base URL). */
  openaiConfigured: boolean;
  /** The endpoint model's context window, when set (SOPWORKS_CONTEXT_WINDOW); null: the server's word, if any. */
  contextWindow: number | null;
  /** Which limits were set, not defaulted: a local model plans the others for its context (context-plan.ts). */
  explicit: { maxOutputTokens: boolean; maxContinuations: boolean };
}

export const DEFAULT_MODEL = 'gpt-4o-mini';

export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const e = parseEnvironment(EnvSchema, env);
  const apiKey = e.OPENAI_API_KEY?.trim() || null;
  const baseUrl = e.OPENAI_BASE_URL?.trim() || null;
  return {
    model: {
      model: e.SOPWORKS_MODEL?.trim() || DEFAULT_MODEL,
      apiKey,
      baseUrl,
      structuredOutput: e.SOPWORKS_STRUCTURED_OUTPUT ?? 'json_schema',
      promptCacheKey: e.SOPWORKS_PROMPT_CACHE_KEY ?? 'auto',
      maxRetries: e.SOPWORKS_MAX_RETRIES,
      retryBaseMs: e.SOPWORKS_RETRY_BASE_MS,
      retryMaxMs: e.SOPWORKS_RETRY_MAX_MS,
      waitForQuota: e.SOPWORKS_WAIT_FOR_QUOTA === 'true' || e.SOPWORKS_WAIT_FOR_QUOTA === '1',
      maxContinuations: e.SOPWORKS_MAX_CONTINUATIONS,
      // Unset: three whole replies' worth, at least one (src/capabilities/model/cut-off-allowance.ts).
      maxCutOffTokens: Math.max(e.SOPWORKS_MAX_CUT_OFF_TOKENS || 3 * e.SOPWORKS_MAX_OUTPUT_TOKENS, e.SOPWORKS_MAX_OUTPUT_TOKENS),
      maxOutputTokens: e.SOPWORKS_MAX_OUTPUT_TOKENS,
      timeoutMs: e.SOPWORKS_TIMEOUT_MS,
      temperature: e.SOPWORKS_TEMPERATURE,
    },
    maxRepairs: e.SOPWORKS_MAX_REPAIRS,
    price:
      e.SOPWORKS_PRICE_INPUT !== null && e.SOPWORKS_PRICE_OUTPUT !== null
        ? {
            inputPerMTok: e.SOPWORKS_PRICE_INPUT,
            outputPerMTok: e.SOPWORKS_PRICE_OUTPUT,
            ...(e.SOPWORKS_PRICE_CACHED_INPUT !== null ? { cachedInputPerMTok: e.SOPWORKS_PRICE_CACHED_INPUT } : {}),
          }
        : null,
    maxOutputTokens: e.SOPWORKS_MAX_OUTPUT_TOKENS,
    scriptedLatencyMs: e.SOPWORKS_SCRIPTED_LATENCY_MS,
    sandbox: {
      mode: e.SOPWORKS_SANDBOX ?? 'auto',
      limits: {
        cpuSeconds: e.SOPWORKS_SANDBOX_CPU_SECONDS,
        memoryMb: e.SOPWORKS_SANDBOX_MEMORY_MB,
        maxProcesses: e.SOPWORKS_SANDBOX_MAX_PROCESSES,
        outputKb: e.SOPWORKS_SANDBOX_OUTPUT_KB,
      },
    },
    openaiConfigured: apiKey !== null || baseUrl !== null,
    contextWindow: e.SOPWORKS_CONTEXT_WINDOW > 0 ? e.SOPWORKS_CONTEXT_WINDOW : null,
    explicit: {
      maxOutputTokens: (env.SOPWORKS_MAX_OUTPUT_TOKENS ?? '').trim() !== '',
      maxContinuations: (env.SOPWORKS_MAX_CONTINUATIONS ?? '').trim() !== '',
    },
  };
}
