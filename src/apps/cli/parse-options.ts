/** Validates a command's options with zod; a bad flag is a usage error that names the flag. */
import { z } from 'zod';
import { SopworksError } from '../../ground/errors.ts';

const flag = (key: string): string => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** `command`: the command whose help the hint names (`run`, `sop validate`). */
export function parseOptions<S extends z.ZodType>(schema: S, raw: unknown, command: string): z.infer<S> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => `${i.path.length > 0 ? flag(String(i.path[0])) : 'options'}: ${i.message}`);
  throw new SopworksError('USAGE', issues.join('\n'), { hint: `See \`sopworks help ${command}\`.` });
}

/** A flag given as text that must be a number `valid` takes (it sees the text too); null when the flag is absent. */
export const numberFlag = (valid: (n: number, text: string) => boolean, expected: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return null;
      const n = Number(v);
      if (!valid(n, v)) {
        ctx.addIssue({ code: 'custom', message: `${expected}, got "${v}"` });
        return z.NEVER;
      }
      return n;
    });

/** A flag given as text that must be a positive number. */
export const positiveNumber = (what: string) => numberFlag((n) => Number.isFinite(n) && n > 0, `must be ${what} greater than 0`);

/** A whole number from `min` to `max`, or null when the flag is absent. */
export const wholeNumberIn = (min: number, max: number) =>
  numberFlag((n) => Number.isInteger(n) && n >= min && n <= max, `must be a whole number from ${min} to ${max}`);

export const positiveInteger = (what: string) =>
  positiveNumber(what).refine((n) => n === null || Number.isInteger(n), { message: `must be a whole number of ${what}` });

/** Units a duration flag takes, in milliseconds. */
const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * A duration flag (`--max-time`): `90s`, `15m`, `1h30m`, `500ms`, or a bare number of seconds; null when
 * absent. Kept with the text it was given, which the outcome quotes.
 */
export const duration = () =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return null;
      const text = v.trim();
      const parts = /^\d+(\.\d+)?$/.test(text) ? [[text, text, 's']] : [...text.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)];
      const ms = parts.reduce((sum, part) => sum + Number(part[1]) * UNITS[part[2]!]!, 0);
      if (parts.map((p) => p[0]).join('') !== text || !(ms > 0) || !Number.isFinite(ms)) {
        ctx.addIssue({ code: 'custom', message: `must be a duration such as 90s, 15m or 1h30m, got "${v}"` });
        return z.NEVER;
      }
      return { ms: Math.round(ms), text };
    });
