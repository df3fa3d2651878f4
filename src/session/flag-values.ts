/**
 * The kinds of value a flag takes, checked with zod: numbers within bounds, a duration, the gates to
 * hold. A command line gives them as text, eval and the queue as values; either way a bad one is refused
 * with the flag's name and what it takes (parse-request.ts).
 */
import { z } from 'zod';

/** A number given as text or as a number, that `valid` takes (it sees the text too); null when absent. */
export const numberFlag = (valid: (n: number, text: string) => boolean, expected: string) =>
  z
    .union([z.string(), z.number()])
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return null;
      const n = Number(v);
      if (!valid(n, String(v))) {
        ctx.addIssue({ code: 'custom', message: `${expected}, got "${v}"` });
        return z.NEVER;
      }
      return n;
    });

/** A positive number. */
export const positiveNumber = (what: string) => numberFlag((n) => Number.isFinite(n) && n > 0, `must be ${what} greater than 0`);

/** A whole number from `min` to `max`, or null when the flag is absent. */
export const wholeNumberIn = (min: number, max: number) =>
  numberFlag((n) => Number.isInteger(n) && n >= min && n <= max, `must be a whole number from ${min} to ${max}`);

export const positiveInteger = (what: string) =>
  positiveNumber(what).refine((n) => n === null || Number.isInteger(n), { message: `must be a whole number of ${what}` });

/** Units a duration takes, in milliseconds. */
const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * A duration (`--max-time`): `90s`, `15m`, `1h30m`, `500ms`, or a bare number of seconds; null when
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

/**
 * `--approve prd,design`: the gates to hold, as a comma list or a list; null when not given. Which gates there are is the
 * approvals' to say: checked when the run is prepared (prepare-company.ts), which names an unknown one.
 */
export const gateList = () =>
  z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) => (v === undefined ? null : (typeof v === 'string' ? v.split(',') : v).map((g) => g.trim()).filter(Boolean)));

/** `--chaos <rate>`: the share of a scenario's replies to spoil. */
export const chaosRate = () =>
  numberFlag(
    (rate, text) => text.trim() !== '' && Number.isFinite(rate) && rate >= 0 && rate <= 1,
    'must be the share of replies to spoil, from 0 to 1 (e.g. 0.3)',
  );

/** `--seed <n>`: which replies chaos spoils. */
export const chaosSeed = () => numberFlag((seed, text) => text.trim() !== '' && Number.isSafeInteger(seed) && seed >= 0, 'must be a whole number from 0');
