/** Structured outputs an `ask` step may request, besides `code` (one file) and `files` (several). */
import { ReadRequest } from '../../documents/change-schemas.ts';
import type { z } from 'zod';
import { messageTypes } from '../message-types.ts';
import * as S from '../../documents/schemas.ts';

export const askSchemas: Record<string, z.ZodType> = {
  Review: S.Review,
  // The files a change run's step asks to read (src/documents/change-schemas.ts).
  ReadRequest: ReadRequest,
  ...Object.fromEntries(Object.entries(messageTypes).map(([name, type]) => [name, type.schema])),
};
