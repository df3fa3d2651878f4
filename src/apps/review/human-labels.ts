/**
 * Names and values as a person writes them, for the review's recorded facts: "Budget" for `budget`,
 * "Cost" for `costUsd`, "$0.0123" for 0.0123 US dollars, "20,000 tokens". Pure.
 */

/** US dollars: four decimals under a dollar (model calls cost fractions of a cent), two above. */
export const dollars = (usd: number): string => `$${usd.toFixed(Math.abs(usd) < 1 ? 4 : 2)}`;

export const thousands = (n: number): string => n.toLocaleString('en-US');

const KNOWN: Record<string, string> = { costUsd: 'Cost', budget: 'Budget', usd: 'US dollars', tokens: 'Tokens' };

/** A recorded field's name for people: a known one by its word, else camelCase split into words. */
export function labelOf(key: string): string {
  if (KNOWN[key]) return KNOWN[key];
  const words = key
    .replace(/Usd$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1) || key;
}

/** A value in the unit its name says: dollars for `…usd`/`cost…`, a count of tokens for `tokens`. */
export function shownValue(key: string, value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'number') {
    if (/usd$|^cost/i.test(key)) return dollars(value);
    if (/tokens$/i.test(key)) return `${thousands(value)} tokens`;
    return thousands(value);
  }
  if (typeof value !== 'object') return String(value);
  const entries = Object.entries(value);
  if (Array.isArray(value) || entries.some(([, v]) => v !== null && typeof v === 'object')) return JSON.stringify(value);
  const set = entries.filter(([, v]) => v !== null && v !== undefined);
  if (set.length === 0) return 'none';
  return set.map(([k, v]) => shownValue(k, v)).join(', ');
}
