/**
 * How the gateway reads and writes the exchange log's records of a call: what each attempt's record says,
 * and, replaying a recorded round on resume, whether it used up the role's chain of models.
 */
import type { AskRequest } from '../../engine/steps/index.ts';
import type { ExchangeRecord } from './exchange-record.ts';
import type { ChatMessage, ModelRoute } from './provider.ts';

/**
 * Whether a recorded round used up the role's chain: walked as the gateway walks it — a model that could
 * not answer passes to the next, one whose `perModel` attempts all failed too — it reached past the last
 * model with no valid reply.
 */
export function usedUp(round: readonly ExchangeRecord[], chain: readonly ModelRoute[], perModel: number): boolean {
  if (round.length === 0 || round.some((r) => r.ok)) return false;
  let model = 0;
  let made = 0;
  for (const record of round) {
    if (record.unavailable || ++made >= perModel) {
      model++;
      made = 0;
    }
  }
  return model >= chain.length;
}

/** What every exchange record of an attempt says: which call, which attempt, which model, what was sent, when. */
export const exchangeOf = (request: AskRequest, attempt: number, route: ModelRoute, messages: readonly ChatMessage[], sentAt: number) => ({
  ...request.call,
  occurrence: request.occurrence,
  attempt,
  model: route.label,
  messages: [...messages],
  ms: Date.now() - sentAt,
  at: new Date(sentAt).toISOString(),
});

export const chainHas = (chain: readonly ModelRoute[], label: string): boolean => chain.some((route) => route.label === label);
