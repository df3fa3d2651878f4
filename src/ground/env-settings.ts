/**
 * Settings read from the environment (and `.env`): a blank value counts as unset, numbers are checked
 * with a message that quotes what was given, and every bad setting is named at once.
 */
import { z } from 'zod';
import { SopworksError } from './errors.ts';

/** An empty value (as in a copied .env.example) means "not set". */
export const blankAsUnset = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema);

/** A number from a setting's text: `fallback` when unset or blank; otherwise one `valid` accepts, or "must be <what>, got …". */
export const numberSetting = <F>(fallback: F, valid: (n: number) => boolean, what: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return fallback;
      const n = Number(v);
      if (!valid(n)) {
        ctx.addIssue({ code: 'custom', message: `must be ${what}, got "${v}"` });
        return z.NEVER;
      }
      return n;
    });

/** The environment read through `schema`, or CONFIG_INVALID naming every setting that is not valid. */
export function parseEnvironment<T extends z.ZodType>(schema: T, env: NodeJS.ProcessEnv): z.output<T> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
  throw new SopworksError('CONFIG_INVALID', `Invalid settings in the environment or .env:\n${issues}`, {
    hint: 'See .env.example for every setting and its allowed values.',
  });
}
