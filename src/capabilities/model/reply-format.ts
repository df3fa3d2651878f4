/**
 * What the gateway asks a reply to be and how it reads one: the output format a prompt names (with a
 * JSON output's strict schema, made once per schema), the parsers by output kind, the verdict on a
 * reply, and the warm-up tasks that make the parsing code ready before the first real reply.
 */
import type { z } from 'zod';
import type { AskRequest, OutputSpec } from '../../engine/steps/index.ts';
import { parseCodeReply, parseFilesReply } from './parse/code-reply.ts';
import { parseEditsReply } from './parse/edits-reply.ts';
import { parseJsonReply } from './parse/json-reply.ts';
import type { ParseResult } from './parse/result.ts';
import type { OutputKind } from './prompt-renderer.ts';
import type { SchemaCaps } from './schema-caps.ts';
import { serverJsonSchema, strictJsonSchema } from './strict-json-schema.ts';
import type { WarmUpTask } from './warm-up.ts';

/**
 * Parses and validates a reply, then lets the request's own check refuse it. A reply that stopped at the
 * output limit is never taken, however well it parses: what is missing may be a whole file or a last
 * edit after a complete one, which no parser can see.
 */
export function judgeReply(text: string, finishReason: string | null, request: AskRequest): ParseResult<unknown> {
  if (finishReason === 'length') {
    return {
      ok: false,
      error:
        'the reply was cut off at the output limit (finish_reason: length), so part of it is missing; reply again with the whole answer, more concise if need be',
    };
  }
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
export function strictSchemaOf(zodSchema: Parameters<typeof strictJsonSchema>[0]): { schema: ReturnType<typeof strictJsonSchema>; text: string } {
  let made = strictSchemas.get(zodSchema);
  if (!made) {
    const schema = strictJsonSchema(zodSchema);
    made = { schema, text: JSON.stringify(schema, null, 2) };
    strictSchemas.set(zodSchema, made);
  }
  return made;
}

/** What bounds a reply besides its shape: the caps on its strings and lists, and the tokens it may take. */
export interface ReplyLimits {
  caps: SchemaCaps | null;
  /** The most tokens one request's reply may take (its max_tokens); null: unknown. */
  replyTokens: number | null;
  /** When a reply cut off at replyTokens is continued: the most tokens all its parts may take; null or absent: it is not. */
  continuedTokens?: number | null;
}

/**
 * The output format a prompt states: for JSON, the schema with every constraint the reply is checked
 * against — the lengths zod checks and the run's caps, which OpenAI's own structured output does not
 * carry (response_format gets its strict subset) — and for every kind the reply's own limit.
 */
export function formatOf(output: OutputSpec, limits: ReplyLimits = { caps: null, replyTokens: null }): ReplyFormat {
  const chars = (tokens: number | null | undefined) => (tokens == null ? null : tokens * CHARS_PER_TOKEN);
  const continued = limits.continuedTokens ?? null;
  const limit = { replyTokens: limits.replyTokens, replyChars: chars(limits.replyTokens), continuedTokens: continued, continuedChars: chars(continued) };
  switch (output.kind) {
    case 'json':
      return { kind: 'json', schema: promptSchemaText(output.schema, limits.caps), ...limit };
    case 'code':
      return { kind: 'code', path: output.path, ...limit };
    case 'files':
      return { kind: 'files', ...limit };
    case 'edits':
      return { kind: 'edits', path: output.path, ...limit };
  }
}

/** What a format template is given: the kind, the schema or path, and the reply's limit in tokens and about as many characters. */
export interface ReplyFormat {
  kind: OutputKind;
  schema?: string;
  path?: string;
  replyTokens: number | null;
  replyChars: number | null;
  /** The most all the parts of a continued reply may take, in tokens and about as many characters; null: a reply is not continued. */
  continuedTokens: number | null;
  continuedChars: number | null;
}

/** Characters a token of text holds, about: how a reply's limit is said in characters too. */
const CHARS_PER_TOKEN = 3;

/** The schema a prompt shows, per schema and caps: every call of an action shows the same. */
const promptSchemas = new WeakMap<object, Map<string, string>>();
function promptSchemaText(schema: z.ZodType, caps: SchemaCaps | null): string {
  let byCaps = promptSchemas.get(schema);
  if (!byCaps) promptSchemas.set(schema, (byCaps = new Map()));
  const key = JSON.stringify(caps);
  let text = byCaps.get(key);
  if (text === undefined) byCaps.set(key, (text = JSON.stringify(serverJsonSchema(schema, caps), null, 2)));
  return text;
}
