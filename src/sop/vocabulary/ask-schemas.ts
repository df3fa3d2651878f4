/** Structured outputs an `ask` step may request, besides `code` (one file) and `files` (several). */
import { ReadRequest } from '../../artifacts/change/change-schemas.ts';
import type { z } from 'zod';
import { messageTypes } from '../../artifacts/registry.ts';
import * as S from '../../artifacts/schemas.ts';

export const askSchemas: Record<string, z.ZodType> = {
  Review: S.Review,
  // The files a change run's step asks to read (src/change/change-schemas.ts).
  ReadRequest: ReadRequest,
  ...Object.fromEntries(Object.entries(messageTypes).map(([name, type]) => [name, type.schema])),
};
