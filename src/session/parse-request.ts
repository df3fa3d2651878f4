/** A request checked against its schema; a bad field is a usage error that names its flag. */
import type { z } from 'zod';
import { SopworksError } from '../ground/errors.ts';
import { flagName } from './flag.ts';

/** `command`: the command whose help the hint names (`run`, `sop validate`). */
export function parseRequest<S extends z.ZodType>(schema: S, raw: unknown, command: string): z.infer<S> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => `${i.path.length > 0 ? flagName(String(i.path[0])) : 'options'}: ${i.message}`);
  throw new SopworksError('USAGE', issues.join('\n'), { hint: `See \`sopworks help ${command}\`.` });
}
