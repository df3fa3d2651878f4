/**
 * `npm run bench:reviews`: what a run's model reviews cost and what they found, read from its exchange
 * log — every attempt of every call, with its tokens (reported by the endpoint, or counted). A review is
 * a call whose action starts with `review_`; its verdict is its reply, parsed as the run parsed it. For
 * each run: the calls and tokens of the whole run and of its reviews, how many reviews approved and how
 * many sent the work back, the issues they raised, and whether a revision followed.
 *
 *   npm run bench:reviews -- RUN... [--json FILE]
 *
 * A RUN is a project folder (its .sopworks/exchanges.jsonl), an exchanges.jsonl, or a scenario file
 * (`--record` output, examples/*.yaml) of a new project, replayed first into a temporary folder with the
 * scripted model — a recorded run's replies, sent this version's prompts.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { ExchangeRecord } from '../src/capabilities/model/exchange-record.ts';
import { parseJsonReply } from '../src/capabilities/model/parse/json-reply.ts';
import { Review } from '../src/documents/schemas.ts';
import { runExchanges } from './run-exchanges.ts';

interface Tokens {
  calls: number;
  prompt: number;
  completion: number;
}

export interface ReviewFigures {
  run: string;
  /** The run's outcome (run.json), when the folder has one. */
  outcome: string | null;
  all: Tokens;
  reviews: Tokens;
  /** Per review action (review_file, review_prd, …). */
  byAction: Record<string, Tokens & { approved: number; rejected: number }>;
  approved: number;
  rejected: number;
  /** Each review that sent the work back: what, and whether a revision of it followed. */
  findings: { action: string; key: string | null; issues: string[]; revised: boolean }[];
}

const add = (t: Tokens, r: ExchangeRecord) => {
  t.calls++;
  t.prompt += r.usage.promptTokens;
  t.completion += r.usage.completionTokens;
};

/** The figures of one run's exchanges. */
export function reviewFigures(run: string, records: readonly ExchangeRecord[], outcome: string | null = null): ReviewFigures {
  const figures: ReviewFigures = { run, outcome, all: zero(), reviews: zero(), byAction: {}, approved: 0, rejected: 0, findings: [] };
  records.forEach((record, index) => {
    add(figures.all, record);
    if (!record.action.startsWith('review_')) return;
    add(figures.reviews, record);
    const action = (figures.byAction[record.action] ??= { ...zero(), approved: 0, rejected: 0 });
    add(action, record);
    if (!record.ok) return;
    const verdict = parseJsonReply(record.reply, Review);
    if (!verdict.ok) return;
    if (verdict.value.approved) {
      figures.approved++;
      action.approved++;
      return;
    }
    figures.rejected++;
    action.rejected++;
    const revised = records.slice(index + 1).some((later) => later.role === record.role && later.key === record.key && /^(revise|refix)/.test(later.action));
    figures.findings.push({ action: record.action, key: record.key, issues: verdict.value.issues, revised });
  });
  return figures;
}

const zero = (): Tokens => ({ calls: 0, prompt: 0, completion: 0 });

/** The figures of a RUN argument: a project folder, an exchanges.jsonl, or a scenario replayed (run-exchanges.ts). */
async function figuresOf(arg: string): Promise<ReviewFigures> {
  const run = await runExchanges(arg);
  return reviewFigures(run.name, run.records, run.outcome);
}

const share = (part: number, whole: number): string => (whole === 0 ? '—' : `${Math.round((part / whole) * 100)}%`);

export function reviewTable(rows: readonly ReviewFigures[]): string {
  const lines = [
    '| run | outcome | calls | prompt tokens | review calls | review prompt tokens | review completion tokens | approved | sent back | revised after |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.run} | ${r.outcome ?? '—'} | ${r.all.calls} | ${r.all.prompt} | ${r.reviews.calls} (${share(r.reviews.calls, r.all.calls)}) | ${r.reviews.prompt} (${share(r.reviews.prompt, r.all.prompt)}) | ${r.reviews.completion} | ${r.approved} | ${r.rejected} | ${r.findings.filter((f) => f.revised).length} |`,
    ),
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { json: { type: 'string' } } });
  if (positionals.length === 0) {
    console.error('usage: npm run bench:reviews -- RUN... [--json FILE]   (a project folder, an exchanges.jsonl, or a scenario file to replay)');
    process.exit(2);
  }
  const rows: ReviewFigures[] = [];
  for (const arg of positionals) rows.push(await figuresOf(arg));
  process.stdout.write(`${reviewTable(rows)}\n`);
  for (const row of rows) {
    for (const f of row.findings)
      process.stdout.write(`\n${row.run} ${f.action} ${f.key ?? ''}${f.revised ? ' (revised)' : ''}\n${f.issues.map((i) => `  - ${i}`).join('\n')}\n`);
  }
  if (values.json) await fs.writeFile(values.json, `${JSON.stringify(rows, null, 2)}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
