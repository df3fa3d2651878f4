/** The envelope of every board message. The payload is validated by the schema of its type. */
import { z } from 'zod';

export const MessageId = z.string().regex(/^msg-\d{6,}$/);

export const Envelope = z.object({
  id: MessageId,
  seq: z.number().int().min(1),
  type: z.string().min(1),
  from: z.string().min(1),
  /** A role id, or "all". */
  to: z.string().min(1),
  causedBy: z.array(MessageId),
  payload: z.unknown(),
  createdAt: z.string(),
});

export type Message<P = unknown> = Omit<z.infer<typeof Envelope>, 'payload'> & { payload: P };

export type Draft<P = unknown> = Pick<Message<P>, 'type' | 'from' | 'payload'> & Partial<Pick<Message<P>, 'to' | 'causedBy'>>;

export const messageId = (seq: number): string => `msg-${String(seq).padStart(6, '0')}`;
