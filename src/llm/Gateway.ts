/**
 * The one way to the model. In order: render the prompt → call the provider → parse → validate →
 * on failure re-ask with the validation errors (bounded) → meter tokens → record the exchange.
 */
import type { z } from 'zod';
import { strictJsonSchema } from './strict-json-schema.ts';
import { SopworksError } from '../errors.ts';
import type { AppendLog } from '../board/append-log.ts';
import type { RoleProfile } from '../roles/role-profile.ts';
import { describeCall, type CallMeta, type ChatMessage, type Provider } from './provider.ts';
import type { OutputKind, PromptRenderer } from './prompt-renderer.ts';
import { parseJsonReply } from './parse/json-reply.ts';
import { parseCodeReply, parseFilesReply } from './parse/code-reply.ts';
import type { ParseResult } from './parse/result.ts';
import { countPromptTokens, countTextTokens } from './token-count.ts';
import type { CallRecord, UsageMeter } from './usage.ts';

export type OutputSpec =
  | { kind: 'json'; name: string; schema: z.ZodType }
  | { kind: 'code'; path: string }
  | { kind: 'files' };

export interface AskRequest {
  call: CallMeta;
  profile: RoleProfile;
  variables: Record<string, unknown>;
  output: OutputSpec;
  signal?: AbortSignal;
}

export type GatewayEvent =
  | { kind: 'call-start'; call: CallMeta }
  | { kind: 'call-repair'; call: CallMeta; attempt: number; error: string }
  | { kind: 'call-end'; call: CallMeta; record: CallRecord };

export interface GatewayOptions {
  provider: Provider;
  renderer: PromptRenderer;
  meter: UsageMeter;
  /** Where every exchange (prompt and reply) is recorded; null to keep none. */
  exchanges: AppendLog | null;
  maxRepairs: number;
  onEvent?: (event: GatewayEvent) => void;
}

export class Gateway {
  constructor(private readonly options: GatewayOptions) {}

  get provider(): Provider {
    return this.options.provider;
  }

  async ask(request: AskRequest): Promise<unknown> {
    const { provider, renderer, meter, exchanges, maxRepairs, onEvent } = this.options;
    const format = formatOf(request.output);
    const prompt = renderer.render(request.profile, request.call.action, request.variables, format);
    const messages: ChatMessage[] = [
      { role: 'system', content: prompt.system },
      { role: 'user', content: prompt.user },
    ];
    const jsonSchema = request.output.kind === 'json' ? { name: request.output.name, schema: strictJsonSchema(request.output.schema) } : null;
    const started = Date.now();
    const tokens = { promptTokens: 0, completionTokens: 0, counted: false };
    onEvent?.({ kind: 'call-start', call: request.call });

    let lastError = '';
    for (let attempt = 1; attempt <= maxRepairs + 1; attempt++) {
      const sentAt = Date.now();
      const completion = await provider.complete({ call: request.call, messages, jsonSchema, signal: request.signal });
      const usage = completion.usage ?? {
        promptTokens: countPromptTokens(messages),
        completionTokens: countTextTokens(completion.text),
      };
      tokens.promptTokens += usage.promptTokens;
      tokens.completionTokens += usage.completionTokens;
      tokens.counted ||= completion.usage === null;
      const parsed = parseReply(completion.text, request.output);
      await exchanges?.append({
        ...request.call,
        attempt,
        messages,
        reply: completion.text,
        finishReason: completion.finishReason,
        usage,
        usageCounted: completion.usage === null,
        ok: parsed.ok,
        error: parsed.ok ? null : parsed.error,
        ms: Date.now() - sentAt,
        at: new Date(sentAt).toISOString(),
      });
      if (parsed.ok) {
        const record = { ...request.call, ...tokens, repairs: attempt - 1, ms: Date.now() - started, ok: true };
        meter.record(record);
        onEvent?.({ kind: 'call-end', call: request.call, record });
        return parsed.value;
      }
      lastError = parsed.error;
      if (attempt <= maxRepairs) {
        onEvent?.({ kind: 'call-repair', call: request.call, attempt, error: parsed.error });
        messages.push({ role: 'assistant', content: completion.text }, { role: 'user', content: renderer.renderRepair(parsed.error, format) });
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
}

function parseReply(text: string, output: OutputSpec): ParseResult<unknown> {
  switch (output.kind) {
    case 'json':
      return parseJsonReply(text, output.schema);
    case 'code':
      return parseCodeReply(text, output.path);
    case 'files':
      return parseFilesReply(text);
  }
}

function formatOf(output: OutputSpec): { kind: OutputKind; schema?: string; path?: string } {
  switch (output.kind) {
    case 'json':
      return { kind: 'json', schema: JSON.stringify(strictJsonSchema(output.schema), null, 2) };
    case 'code':
      return { kind: 'code', path: output.path };
    case 'files':
      return { kind: 'files' };
  }
}
