/**
 * What tokens cost, in US dollars per million tokens. Known for common OpenAI models (list prices);
 * for any other model — a local one still spends tokens — set SOPWORKS_PRICE_INPUT and
 * SOPWORKS_PRICE_OUTPUT. Unknown price: cost is reported as unknown, and `--budget` refuses to run
 * (use `--max-tokens`).
 */
export interface Price {
  inputPerMTok: number;
  outputPerMTok: number;
  /** Prompt tokens served from the provider's prefix cache; absent: priced as other input. */
  cachedInputPerMTok?: number;
}

/** Longest prefix wins, so dated snapshots ("gpt-4o-mini-2024-07-18") find their family. */
const KNOWN: Record<string, Price> = {
  'gpt-5': { inputPerMTok: 1.25, outputPerMTok: 10, cachedInputPerMTok: 0.125 },
  'gpt-5-mini': { inputPerMTok: 0.25, outputPerMTok: 2, cachedInputPerMTok: 0.025 },
  'gpt-5-nano': { inputPerMTok: 0.05, outputPerMTok: 0.4, cachedInputPerMTok: 0.005 },
  'gpt-4.1': { inputPerMTok: 2, outputPerMTok: 8, cachedInputPerMTok: 0.5 },
  'gpt-4.1-mini': { inputPerMTok: 0.4, outputPerMTok: 1.6, cachedInputPerMTok: 0.1 },
  'gpt-4.1-nano': { inputPerMTok: 0.1, outputPerMTok: 0.4, cachedInputPerMTok: 0.025 },
  'gpt-4o': { inputPerMTok: 2.5, outputPerMTok: 10, cachedInputPerMTok: 1.25 },
  'gpt-4o-mini': { inputPerMTok: 0.15, outputPerMTok: 0.6, cachedInputPerMTok: 0.075 },
  'gpt-4-turbo': { inputPerMTok: 10, outputPerMTok: 30 },
  'gpt-3.5-turbo': { inputPerMTok: 0.5, outputPerMTok: 1.5 },
  o3: { inputPerMTok: 2, outputPerMTok: 8, cachedInputPerMTok: 0.5 },
  'o3-mini': { inputPerMTok: 1.1, outputPerMTok: 4.4, cachedInputPerMTok: 0.55 },
  'o4-mini': { inputPerMTok: 1.1, outputPerMTok: 4.4, cachedInputPerMTok: 0.275 },
};

export function priceFor(model: string, configured: Price | null): Price | null {
  if (configured) return configured;
  const name = model.toLowerCase();
  const match = Object.keys(KNOWN)
    .filter((prefix) => name === prefix || name.startsWith(`${prefix}-`))
    .sort((a, b) => b.length - a.length)[0];
  return match ? KNOWN[match]! : null;
}

/** A request's cost: its prompt tokens served from a cache at the cached price (when the price has one). */
export function costOf(usage: { promptTokens: number; completionTokens: number; cachedPromptTokens?: number }, price: Price | null): number | null {
  if (price === null) return null;
  const cached = Math.min(usage.cachedPromptTokens ?? 0, usage.promptTokens);
  const input = (usage.promptTokens - cached) * price.inputPerMTok + cached * (price.cachedInputPerMTok ?? price.inputPerMTok);
  return (input + usage.completionTokens * price.outputPerMTok) / 1_000_000;
}

export const formatUsd = (usd: number | null): string => (usd === null ? 'unknown' : usd > 0 && usd < 1 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`);
