/** Structured outputs an `ask` step may request, besides `code` (one file) and `files` (several). */
import type { z } from 'zod';
import { messageTypes } from '../../artifacts/registry.ts';
import * as S from '../../artifacts/schemas.ts';

export const askSchemas: Record<string, z.ZodType> = {
  Review: S.Review,
  ...Object.fromEntries(Object.entries(messageTypes).map(([name, type]) => [name, type.schema])),
};
