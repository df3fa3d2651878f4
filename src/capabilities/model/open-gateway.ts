/**
 * The gateway of a run, opened on its exchange log: calls already recorded are answered from it (a
 * resumed run pays for nothing twice), the budget left is what the log says was spent, and every new
 * exchange is written to it.
 */
import type { OpenedLog } from '../../engine/run/index.ts';
import { Budget, type BudgetLimits } from './budget.ts';
import { ExchangeJournal, ExchangeReplay, usageFromExchanges } from './exchange-log.ts';
import { Gateway, type GatewayOptions } from './gateway.ts';
import type { Price } from './prices.ts';
import { UsageMeter } from './usage.ts';

export interface GatewaySettings extends Omit<GatewayOptions, 'meter' | 'exchanges' | 'replay' | 'budget' | 'price'> {
  limits: BudgetLimits;
  price: Price | null;
}

export function openGateway(log: OpenedLog, settings: GatewaySettings): { gateway: Gateway; exchanges: ExchangeJournal } {
  const replay = ExchangeReplay.parse(log.records);
  settings.provider.skipUsed?.(replay.callsPerCall());
  settings.provider.resumeFrom?.(replay.records);
  const spent = usageFromExchanges(replay.records).total();
  const { limits, price, ...options } = settings;
  const budget =
    limits.usd === null && limits.tokens === null
      ? null
      : new Budget(limits, price, { usd: spent.costUsd ?? 0, tokens: spent.promptTokens + spent.completionTokens });
  const exchanges = new ExchangeJournal(log.log, replay.records);
  return { gateway: new Gateway({ ...options, meter: new UsageMeter(), exchanges, replay, budget, price }), exchanges };
}
