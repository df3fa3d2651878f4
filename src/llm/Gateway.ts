/**
 * The one way to the model. In order: render the prompt → call the provider → parse → validate →
 * on failure re-ask with the validation errors (bounded) → meter tokens → record the exchange.
 */
import type { z } from 'zod';
import { strictJsonSchema } from './strict-json-schema.ts';
import { SopworksError } from '../errors.ts';
import type { RoleProfile } from '../roles/role-profile.ts';
import { describeCall, type CallMeta, type ChatMessage, type Provider } from './provider.ts';
import type { OutputKind, PromptRenderer } from './prompt-renderer.ts';
import { parseJsonReply } from './parse/json-reply.ts';
import { parseCodeReply, parseFilesReply } from './parse/code-reply.ts';
import { parseEditsReply } from './parse/edits-reply.ts';
import type { ParseResult } from './parse/result.ts';
import { countPromptTokens, countTextTokens } from './token-count.ts';
import type { CallRecord, UsageMeter } from './usage.ts';
import type { ExchangeRecord, ExchangeReplay } from './exchange-log.ts';
import type { Budget } from './budget.ts';
import { costOf, type Price } from './prices.ts';
import type { WarmUp, WarmUpTask } from './warm-up.ts';

export type OutputSpec =
  | { kind: 'json'; name: string; schema: z.ZodType }
  | { kind: 'code'; path: string }
  | { kind: 'files' }
  /** Changes to an existing file (search/replace blocks, or a small file whole): parse/edits-reply.ts. */
  | { kind: 'edits'; path: string };

export interface AskRequest {
  call: CallMeta;
  profile: RoleProfile;
  variables: Record<string, unknown>;
  output: OutputSpec;
  /** The n-th call of this action for this key by this role (0-based): with the call, its identity. */
  occurrence: number;
  /**
   * A check of a reply that parsed and validated (the authorization policy's, say): the reason it is
   * refused, re-asked with like a validation error, or null to accept it.
   */
  accept?: (value: unknown) => string | null;
  signal?: AbortSignal;
}

export type GatewayEvent =
  /** `seat`: which of the role's people is asked, when the run hires several (`--engineers N`). */
  | { kind: 'call-start'; call: CallMeta; seat?: string }
  | { kind: 'call-repair'; call: CallMeta; attempt: number; error: string }
  | { kind: 'call-end'; call: CallMeta; record: CallRecord };

export interface GatewayOptions {
  provider: Provider;
  renderer: PromptRenderer;
  meter: UsageMeter;
  /** Where every exchange (prompt and reply) is recorded; null to keep none. */
  exchanges: { append(record: ExchangeRecord): Promise<void> } | null;
  maxRepairs: number;
  /** Attempts recorded before a restart: answered from here, not sent (and not paid for) again. */
  replay?: ExchangeReplay;
  /** Checked before every call; null for an unbounded run. */
  budget?: Budget | null;
  /** The model's price, for the cost of each call; null when unknown. */
  price?: Price | null;
  /** The largest reply a call may produce (the budget check assumes it). */
  maxOutputTokens?: number;
  onEvent?: (event: GatewayEvent) => void;
  /** Where work prepared ahead of need is queued (`prepareWhileWaiting`); none: it is done when needed. */
  warmUp?: WarmUp;
}

export class Gateway {
  /** Valid replies by call and occurrence, to tell a loop (the same reply twice in a row) from progress. */
  private readonly validReplies = new Map<string, string>();

  constructor(private readonly options: GatewayOptions) {
    for (const r of options.replay?.records ?? []) if (r.ok) this.validReplies.set(replyKey(r, r.occurrence), r.reply);
  }

  get provider(): Provider {
    return this.options.provider;
  }

  async ask(request: AskRequest): Promise<unknown> {
    const { provider, renderer, meter, exchanges, maxRepairs, replay, budget, onEvent } = this.options;
    const price = this.options.price ?? null;
    const format = formatOf(request.output);
    const prompt = renderer.render(request.profile, request.call.action, request.variables, format);
    const messages: ChatMessage[] = [
      { role: 'system', content: prompt.system },
      { role: 'user', content: prompt.user },
    ];
    const jsonSchema = request.output.kind === 'json' ? { name: request.output.name, schema: strictSchemaOf(request.output.schema).schema } : null;
    const started = Date.now();
    const tokens = { promptTokens: 0, completionTokens: 0, counted: false, costUsd: 0 as number | null, retries: 0 };
    onEvent?.({ kind: 'call-start', call: request.call, ...(request.profile.seat ? { seat: request.profile.title } : {}) });

    let lastError = '';
    // A call whose every recorded attempt was invalid failed its step: resumed, it is asked afresh
    // (replaying the same invalid replies would only fail it again).
    const exhausted = replay?.find(request.call, request.occurrence, maxRepairs + 1)?.ok === false;
    for (let attempt = 1; attempt <= maxRepairs + 1; attempt++) {
      const sentAt = Date.now();
      const recorded = exhausted ? undefined : replay?.find(request.call, request.occurrence, attempt);
      let text: string;
      let parsed: ParseResult<unknown> | null = null;
      if (recorded) {
        text = recorded.reply;
        tokens.promptTokens += recorded.usage.promptTokens;
        tokens.completionTokens += recorded.usage.completionTokens;
        tokens.costUsd = addCost(tokens.costUsd, recorded.costUsd ?? null);
      } else {
        budget?.check(request.call, countPromptTokens(messages), this.options.maxOutputTokens ?? 4096);
        const pending = provider.complete({ call: request.call, messages, jsonSchema, signal: request.signal });
        this.startWarmUp();
        const completion = await pending;
        text = completion.text;
        const usage = completion.usage ?? {
          promptTokens: countPromptTokens(messages),
          completionTokens: countTextTokens(completion.text),
        };
        budget?.charge(usage);
        const costUsd = costOf(usage, price);
        tokens.promptTokens += usage.promptTokens;
        tokens.completionTokens += usage.completionTokens;
        tokens.counted ||= completion.usage === null;
        tokens.costUsd = addCost(tokens.costUsd, costUsd);
        tokens.retries += completion.retries ?? 0;
        const parsedNow = (parsed = judgeReply(text, request));
        await exchanges?.append({
          ...request.call,
          occurrence: request.occurrence,
          attempt,
          messages,
          reply: text,
          finishReason: completion.finishReason,
          usage,
          usageCounted: completion.usage === null,
          costUsd,
          retries: completion.retries ?? 0,
          continuations: completion.continuations ?? 0,
          ok: parsedNow.ok,
          error: parsedNow.ok ? null : parsedNow.error,
          ms: Date.now() - sentAt,
          at: new Date(sentAt).toISOString(),
        });
      }
      parsed ??= judgeReply(text, request);
      if (parsed.ok) {
        const record = { ...request.call, ...tokens, repairs: attempt - 1, ms: Date.now() - started, ok: true };
        meter.record(record);
        onEvent?.({ kind: 'call-end', call: request.call, record });
        this.guardAgainstLoop(request, text);
        return parsed.value;
      }
      lastError = parsed.error;
      if (attempt <= maxRepairs) {
        onEvent?.({ kind: 'call-repair', call: request.call, attempt, error: parsed.error });
        messages.push({ role: 'assistant', content: text }, { role: 'user', content: renderer.renderRepair(parsed.error, format) });
      }
    }
    const record = { ...request.call, ...tokens, repairs: maxRepairs, ms: Date.now() - started, ok: false };
    meter.record(record);
    onEvent?.({ kind: 'call-end', call: request.call, record });
    throw new SopworksError(
      'REPLY_INVALID',
      `The model's reply for ${describeCall(request.call)} was still invalid after ${maxRepairs + 1} attempts: ${lastError}`,
      { hint: 'Every attempt is in .sopworks/exchanges.jsonl. A stronger model, or an edit to the template, usually helps.' },
    );
  }

  /**
   * Queues work that later steps would otherwise do on the run's critical path (compiling their
   * templates and schemas, say) to be done once the first model call is out, while the process waits.
   */
  prepareWhileWaiting(tasks: readonly WarmUpTask[]): void {
    if (this.options.warmUp) this.later.push(...tasks);
  }

  private readonly later: WarmUpTask[] = [];

  private startWarmUp(): void {
    if (this.later.length > 0) this.options.warmUp?.add(this.later.splice(0));
  }

  /**
   * The same valid reply to the same call twice in a row is a loop, not progress: stop and say where.
   * Review verdicts are exempt — "approved, no issues" is rightly the same every time; a review that
   * keeps coming back to the same issues is the SOP's `repeats` guard's to catch.
   */
  private guardAgainstLoop(request: AskRequest, reply: string): void {
    if (request.output.kind === 'json' && request.output.name === 'Review') return;
    const previous = request.occurrence > 0 ? this.validReplies.get(replyKey(request.call, request.occurrence - 1)) : undefined;
    this.validReplies.set(replyKey(request.call, request.occurrence), reply);
    if (previous !== undefined && previous.trim() === reply.trim()) {
      throw new SopworksError(
        'LOOP_DETECTED',
        `The model gave the same reply to ${describeCall(request.call)} twice in a row (calls ${request.occurrence} and ${request.occurrence + 1}): a loop, not progress.`,
        { hint: 'Look at the two exchanges in .sopworks/exchanges.jsonl; a clearer template or a stronger model usually breaks it. `sopworks resume` retries the step.' },
      );
    }
  }
}

const replyKey = (call: CallMeta, occurrence: number): string => `${call.role}\u0000${call.action}\u0000${call.key ?? ''}\u0000${occurrence}`;
const addCost = (total: number | null, cost: number | null): number | null => (total === null || cost === null ? null : total + cost);

/** Parses and validates a reply, then lets the request's own check refuse it. */
function judgeReply(text: string, request: AskRequest): ParseResult<unknown> {
  const parsed = parseReply(text, request.output);
  const refusal = parsed.ok && request.accept ? request.accept(parsed.value) : null;
  return refusal === null ? parsed : { ok: false, error: refusal };
}

function parseReply(text: string, output: OutputSpec): ParseResult<unknown> {
  switch (output.kind) {
    case 'json':
      return parseJsonReply(text, output.schema);
    case 'code':
      return parseCodeReply(text, output.path);
    case 'files':
      return parseFilesReply(text);
    case 'edits':
      return parseEditsReply(text, output.path);
  }
}

/** A task making a schema's strict JSON Schema ahead of the first call that needs it (warm-up.ts). */
export const schemaWarmUpTask =
  (schema: z.ZodType): WarmUpTask =>
  () =>
    void strictSchemaOf(schema);

/**
 * Tasks parsing a small reply of each kind — JSON against each of `schemas`, one file, several files —
 * so that the parsing code, and zod's compiled check of each schema, are made ahead of the first real
 * reply of that kind rather than on the run's critical path (a few ms each, the first time).
 */
export function replyParsingWarmUpTasks(schemas: readonly z.ZodType[]): WarmUpTask[] {
  const code = '```js\nexport const sample = 1;\n```\n';
  return [
    ...schemas.map((schema) => () => void parseJsonReply('```json\n{"sample": [1]}\n```\n', schema)),
    () => void parseCodeReply(code, 'src/sample.js'),
    () => void parseFilesReply(`src/sample.js\n${code}`),
  ];
}

/** A schema's strict JSON Schema and its text, made once per schema: every call of an action asks for the same. */
const strictSchemas = new WeakMap<object, { schema: ReturnType<typeof strictJsonSchema>; text: string }>();
function strictSchemaOf(zodSchema: Parameters<typeof strictJsonSchema>[0]): { schema: ReturnType<typeof strictJsonSchema>; text: string } {
  let made = strictSchemas.get(zodSchema);
  if (!made) {
    const schema = strictJsonSchema(zodSchema);
    made = { schema, text: JSON.stringify(schema, null, 2) };
    strictSchemas.set(zodSchema, made);
  }
  return made;
}

function formatOf(output: OutputSpec): { kind: OutputKind; schema?: string; path?: string } {
  switch (output.kind) {
    case 'json':
      return { kind: 'json', schema: strictSchemaOf(output.schema).text };
    case 'code':
      return { kind: 'code', path: output.path };
    case 'files':
      return { kind: 'files' };
    case 'edits':
      return { kind: 'edits', path: output.path };
  }
}
