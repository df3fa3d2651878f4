/** Text that should be JSON of a given shape (a line, a server's body): its data, or null when it is not. */
import type { z } from 'zod';

export function parseJsonAs<S extends z.ZodType>(schema: S, text: string): z.infer<S> | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? parsed.data : null;
}
