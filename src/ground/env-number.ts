/** A number read from an environment setting (text), checked with zod: unset or blank is `fallback`. */
import { z } from 'zod';

export const envNumber = <F extends number | null>(fallback: F, valid: (n: number) => boolean, expected: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx): number | F => {
      if (v === undefined || v.trim() === '') return fallback;
      const n = Number(v);
      if (!valid(n)) {
        ctx.addIssue({ code: 'custom', message: `${expected}, got "${v}"` });
        return z.NEVER;
      }
      return n;
    });
