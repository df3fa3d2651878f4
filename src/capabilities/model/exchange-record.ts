/** One record of the exchange log (exchange-log.ts): an attempt of a model call, as `.sopworks/exchanges.jsonl` keeps it. */
import { z } from 'zod';

export const ExchangeRecord = z
  .object({
    role: z.string(),
    action: z.string(),
    key: z.string().nullable(),
    /** The n-th call of this action for this key by this role in the run (0-based). */
    occurrence: z.number().int().min(0),
    attempt: z.number().int().min(1),
    reply: z.string(),
    usage: z.object({ promptTokens: z.number(), completionTokens: z.number(), cachedPromptTokens: z.number().optional() }),
    usageCounted: z.boolean(),
    costUsd: z.number().nullable().default(null),
    retries: z.number().int().default(0),
    /** Requests that continued a reply cut off at the output limit. */
    continuations: z.number().int().optional(),
    ok: z.boolean(),
    ms: z.number(),
    finishReason: z.string().nullable().optional(),
    /** The model that answered (its label); absent in logs written before a model per role. */
    model: z.string().optional(),
    /** Set when the model could not answer at all (not found, context exceeded): why the next one was asked. */
    unavailable: z.string().optional(),
    error: z.string().nullable().optional(),
    /** A fault injected into this reply on purpose (`--chaos`): its class and what was expected of it. */
    injected: z.object({ fault: z.string(), expect: z.enum(['accepted', 'reasked', 'retried']) }).optional(),
    /** This reply repeated the script's last one (the answer to a re-ask after an injected fault). */
    reusedReply: z.boolean().optional(),
  })
  .passthrough();

export type ExchangeRecord = z.infer<typeof ExchangeRecord>;
