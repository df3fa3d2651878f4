/** The robustness rows (robustness.ts) as a table, for the terminal and eval.md alike. */
import type { Table } from './render-table.ts';
import type { RobustnessRow } from './robustness.ts';

const share = (value: number | null): string => (value === null ? 'n/a' : `${Math.round(value * 1000) / 10}%`);

export function robustnessTable(rows: readonly RobustnessRow[]): Table {
  return {
    header: [
      'spec',
      'runs',
      'done',
      'same tree',
      'crashed',
      're-asks/run',
      'retries/run',
      'tokens/run (median)',
      'tokens (min–max)',
      'faults',
      'mishandled',
      'pass@1',
      'pass@k',
      'criteria proven',
    ],
    rows: rows.map((r) => [
      r.spec,
      String(r.runs),
      `${r.done} (${share(r.runs === 0 ? null : r.done / r.runs)})`,
      String(r.sameTree),
      String(r.crashed),
      String(r.reasksPerRun),
      String(r.retriesPerRun),
      String(r.tokensMedian),
      `${r.tokensMin}–${r.tokensMax}`,
      String(r.faults),
      String(r.faultsMishandled),
      share(r.passAt1),
      share(r.passAtK),
      share(r.criteriaProven ?? null),
    ]),
  };
}
