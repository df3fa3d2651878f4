/**
 * Settings of the local engine, from the environment (documented in .env.example). Kept apart from
 * config/settings.ts: only `--llm local` reads them.
 */
import { z } from 'zod';
import { blankAsUnset, parseEnvironment } from '../../../../ground/env-settings.ts';

const wholeNumber = (min: number) =>
  blankAsUnset(
    z.coerce.number({ message: 'must be a whole number' }).int(`must be a whole number ≥ ${min}`).min(min, `must be a whole number ≥ ${min}`).optional(),
  );

const LocalEnv = z.object({
  SOPWORKS_LOCAL_CONTEXT: wholeNumber(256),
  SOPWORKS_LOCAL_THREADS: wholeNumber(1),
  SOPWORKS_LOCAL_GPU: blankAsUnset(z.enum(['auto', 'off'], { message: 'must be auto or off' }).optional()),
  SOPWORKS_LOCAL_MAX_STRING_CHARS: wholeNumber(1),
  SOPWORKS_LOCAL_MAX_ITEMS: wholeNumber(1),
  SOPWORKS_LOCAL_SEED: wholeNumber(0),
});

export interface LocalSettings {
  /** Tokens of context; null: what the model was trained on, within what the memory allows. */
  contextSize: number | null;
  /** Generation threads; null: chosen for the machine (machine-fit.ts). */
  threads: number | null;
  gpu: 'auto' | 'off';
  /** Caps the grammar puts on strings and arrays whose schema sets none (small models ramble); null: none. */
  maxStringChars: number | null;
  maxItems: number | null;
  /** The sampler's seed, so a run with a temperature above 0 is repeatable; null: a new one each time. */
  seed?: number | null;
}

export function readLocalSettings(env: NodeJS.ProcessEnv = process.env): LocalSettings {
  const e = parseEnvironment(LocalEnv, env);
  return {
    contextSize: e.SOPWORKS_LOCAL_CONTEXT ?? null,
    threads: e.SOPWORKS_LOCAL_THREADS ?? null,
    gpu: e.SOPWORKS_LOCAL_GPU ?? 'auto',
    maxStringChars: e.SOPWORKS_LOCAL_MAX_STRING_CHARS ?? null,
    maxItems: e.SOPWORKS_LOCAL_MAX_ITEMS ?? null,
    seed: e.SOPWORKS_LOCAL_SEED ?? null,
  };
}
