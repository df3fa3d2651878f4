/** Text read as JSON of a known shape, for data where "not that" is an answer, not an error. */
import type { z } from 'zod';

/** `text` parsed as JSON and checked by `schema`; null when it is not JSON or not of that shape. */
export function jsonAs<T>(schema: z.ZodType<T>, text: string): T | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? parsed.data : null;
}
