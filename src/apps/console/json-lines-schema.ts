/**
 * What `--json` prints: one JSON object per line on stdout, each with a `type`. `run`, `resume` and
 * `change` print every progress event as it happens, then one `summary` with the outcome and the exit
 * code; `status` prints a `run` line per project, then a `summary`; `review` prints the timeline, then a
 * `summary`. A command that fails before or during its work prints an `error` line (the exit codes are
 * those of the README). Human text (notices, the next step) goes to stderr. The schema is the contract:
 * docs/json-lines.schema.json is made from it (scripts/json-schema.ts), and the tests hold every line
 * printed to it.
 */
import { z } from 'zod';

const Usage = z.object({
  calls: z.number().int(),
  promptTokens: z.number().int(),
  cachedPromptTokens: z.number().int().describe('of the prompt tokens, those a cache served, as the provider reported them'),
  cacheHitRate: z
    .number()
    .nullable()
    .describe('of the prompt tokens of the calls whose provider said what its cache served, the share it served; null when none said'),
  completionTokens: z.number().int(),
  repairs: z.number().int(),
  retries: z.number().int().nullable().describe('transport retries; null where the record does not keep them (review)'),
  costUsd: z.number().nullable().describe('US dollars; null when a price is unknown'),
});

/** The acceptance criteria the run's last coverage matrix proves (docs/test-reports/coverage.md). */
const Criteria = z
  .object({
    proven: z.number().int(),
    total: z.number().int(),
    p0Proven: z.number().int(),
    p0Total: z.number().int(),
    unmet: z
      .array(z.object({ id: z.string(), status: z.string() }))
      .describe('the P0 criteria not proven: untested, failing, or rejected by their manual check'),
    manual: z
      .array(z.object({ id: z.string(), verdict: z.string(), reason: z.string().nullable() }))
      .optional()
      .describe('the criteria no automated test can prove, checked by a review reading the files: accepted, rejected, testable or awaiting, with its reason'),
  })
  .nullable()
  .describe('the acceptance criteria proven by a passing test or an accepted manual check (P0 apart); null before any coverage matrix');

const Call = { role: z.string(), action: z.string(), key: z.string().nullable().describe('the file of a per-file action') };

export const JsonLine = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('start'),
    command: z.enum(['run', 'resume', 'change']),
    project: z.string(),
    projectDir: z.string(),
    model: z.string(),
    roles: z.array(z.string()),
  }),
  z.object({ type: z.literal('notice'), text: z.string() }),
  z.object({ type: z.literal('call-start'), ...Call, seat: z.string().nullable().describe('which Engineer, with --engineers N') }),
  z.object({ type: z.literal('call-repair'), ...Call, attempt: z.number().int(), error: z.string() }),
  z.object({ type: z.literal('call-fallback'), ...Call, from: z.string(), to: z.string(), reason: z.string() }),
  z.object({
    type: z.literal('call-progress'),
    ...Call,
    phase: z
      .enum(['reading', 'writing', 'waiting'])
      .describe('reading the prompt, writing the reply, or waiting for a server that tells nothing until it answers'),
    tokens: z.number().int().describe('reply tokens written so far'),
    tokensPerSecond: z.number().nullable(),
    promptTokens: z.number().int().nullable().describe('prompt tokens read (not served from a cache), when known'),
    elapsedMs: z.number().describe('since the request was sent; at most one line a second per call'),
  }),
  z.object({
    type: z.literal('call-end'),
    ...Call,
    ok: z.boolean(),
    promptTokens: z.number().int(),
    completionTokens: z.number().int(),
    cachedPromptTokens: z.number().int().describe('of the prompt tokens, those a cache served (a provider prefix cache, the local engine)'),
    counted: z.boolean().describe('true: counted by the bundled tokenizer, the server reported none'),
    repairs: z.number().int(),
    retries: z.number().int(),
    costUsd: z.number().nullable(),
    ms: z.number(),
  }),
  z.object({
    type: z.literal('message'),
    id: z.string(),
    messageType: z.string().describe('PRD, Design, Code, TestReport, …'),
    from: z.string(),
    to: z.string(),
    summary: z.string().describe('what the message carries, in words'),
  }),
  z.object({ type: z.literal('commit'), role: z.string(), subject: z.string() }),
  z.object({ type: z.literal('tests-start'), role: z.string(), detail: z.string() }),
  z.object({ type: z.literal('tests-end'), role: z.string(), detail: z.string(), passed: z.boolean() }),
  z.object({ type: z.literal('check'), role: z.string(), detail: z.string() }),
  z.object({
    type: z.literal('run'),
    name: z.string(),
    dir: z.string(),
    outcome: z.string().describe('done, failed, criteria-unmet, budget-exhausted, awaiting-approval, interrupted, paused, running, or "cut off"'),
    reason: z.string().nullable(),
    gate: z
      .string()
      .nullable()
      .describe('what a run awaiting approval waits on: decisions ("the prd of product-manager"), or answers ("answers to 2 questions of product-manager")'),
    lastStep: z.string().nullable(),
    usage: Usage.nullable(),
    criteria: Criteria,
  }),
  z.object({
    type: z.literal('timeline'),
    seq: z.number().int(),
    id: z.string(),
    messageType: z.string(),
    from: z.string(),
    to: z.string(),
    createdAt: z.string(),
    summary: z.string(),
  }),
  z.object({
    type: z.literal('summary'),
    command: z.enum(['run', 'resume', 'change', 'status', 'review']),
    outcome: z.string().nullable().describe('the run’s outcome; null for status'),
    reason: z.string().nullable(),
    exitCode: z.number().int(),
    projectDir: z.string().nullable(),
    files: z.number().int().nullable(),
    commits: z.number().int().nullable(),
    tests: z.object({ round: z.number().int(), passed: z.boolean(), detail: z.string() }).nullable(),
    criteria: Criteria,
    usage: Usage.nullable(),
    usageByRole: z
      .array(Usage.extend({ role: z.string() }))
      .nullable()
      .describe('the usage of each role, in the order roles first asked'),
    wallMs: z.number().nullable(),
    runs: z.number().int().nullable().describe('status: how many runs were listed'),
    next: z.array(z.string()).describe('what to do next, as commands'),
    questions: z
      .array(z.object({ role: z.string(), round: z.number().int(), questions: z.array(z.object({ question: z.string(), why: z.string().nullable() })) }))
      .nullable()
      .describe('a run awaiting answers (--clarify): the questions, each role’s in order; `sopworks answer <project> "…" …` answers them'),
  }),
  z.object({ type: z.literal('error'), code: z.string(), message: z.string(), hint: z.string().nullable(), exitCode: z.number().int() }),
]);
export type JsonLine = z.infer<typeof JsonLine>;

export type SummaryLine = Extract<JsonLine, { type: 'summary' }>;

/** A summary with every field present: the fields a command has nothing for are null. */
export const summaryLine = (fields: Partial<SummaryLine> & Pick<SummaryLine, 'command' | 'exitCode'>): SummaryLine => ({
  type: 'summary',
  outcome: null,
  reason: null,
  projectDir: null,
  files: null,
  commits: null,
  tests: null,
  criteria: null,
  usage: null,
  usageByRole: null,
  wallMs: null,
  runs: null,
  next: [],
  questions: null,
  ...fields,
});

/** The JSON Schema of a line, as docs/json-lines.schema.json holds it. */
export function jsonLinesSchemaText(): string {
  const schema = z.toJSONSchema(JsonLine, { target: 'draft-2020-12' });
  return `${JSON.stringify({ title: 'One line of sopworks --json output', ...schema }, null, 2)}\n`;
}
