/**
 * Structured replies: find the JSON in the reply (bare, fenced, or wrapped in prose), repair what is
 * mechanically repairable — syntax (trailing commas, comments, single quotes, raw newlines in strings:
 * jsonrepair) and shape (key case, a wrapping key: align-to-schema) — then let the zod schema judge.
 * A reply cut off mid-JSON is never completed, and two different valid objects are never chosen between:
 * both are re-asked. Never JSON.parse model text anywhere else.
 */
import { jsonrepair } from 'jsonrepair';
import type { z } from 'zod';
import type { JsonSchemaNode } from '../json-schema-node.ts';
import { strictJsonSchema } from '../strict-json-schema.ts';
import { candidateShapes } from './align-to-schema.ts';
import { elidesContent, jsonCandidates } from './json-candidates.ts';
import { isRefusal, refusalError } from './refusal.ts';
import { emptyReplyError, fail, ok, type ParseResult, stripThinking } from './result.ts';

const WANTED = 'the JSON object';

type Decoded = { ok: true; data: unknown; repaired: boolean } | { ok: false; error: string };
type Judged<T> = { ok: true; value: T; repaired: boolean } | { ok: false; error: string };

export function parseJsonReply<T>(raw: string, schema: z.ZodType<T>): ParseResult<T> {
  const text = stripThinking(raw);
  if (text === '') return fail(emptyReplyError(raw, WANTED));
  const candidates = jsonCandidates(text);
  const accepted: { value: T; repaired: boolean }[] = [];
  // The largest candidate that failed is the one the model meant as its answer; its error is reported.
  const worst = { size: -1, error: '' };
  const failed = (size: number, error: string) => {
    if (size > worst.size) Object.assign(worst, { size, error });
  };
  for (const candidate of candidates) {
    if (!candidate.complete) {
      failed(
        candidate.text.length,
        'the reply was cut off before the JSON ended (it stops inside an unclosed object, array or string); reply again with the complete JSON object, more concise if need be',
      );
      continue;
    }
    const decoded = decode(candidate.text);
    if (decoded.ok && decoded.repaired && elidesContent(candidate.text)) {
      failed(candidate.text.length, 'the JSON leaves content out with "..."; write every item in full');
      continue;
    }
    if (!decoded.ok) {
      failed(candidate.text.length, `the reply is not valid JSON (${decoded.error}); reply with one valid JSON object`);
      continue;
    }
    const judged = judge(decoded.data, schema);
    if (judged.ok) accepted.push({ value: judged.value, repaired: judged.repaired || decoded.repaired || candidate.text !== text });
    else failed(candidate.text.length, `the JSON does not match the required schema:\n${judged.error}`);
  }
  const distinct = new Set(accepted.map((a) => JSON.stringify(a.value)));
  if (distinct.size === 1) return ok(accepted[0]!.value, accepted[0]!.repaired);
  if (distinct.size > 1) {
    return fail(`the reply holds ${distinct.size} different JSON objects that each match the schema; reply with exactly one JSON object and nothing else`);
  }
  if (worst.size >= 0) return fail(worst.error);
  if (isRefusal(text)) return fail(refusalError(text, WANTED));
  return fail('the reply contains no JSON object; reply with only the JSON object');
}

/** JSON text → data: strictly first, then through jsonrepair; a JSON string holding JSON is opened once. */
function decode(text: string): Decoded {
  let decoded: Decoded;
  try {
    decoded = { ok: true, data: JSON.parse(text), repaired: false };
  } catch {
    try {
      decoded = { ok: true, data: JSON.parse(jsonrepair(text)), repaired: true };
    } catch (error) {
      return { ok: false, error: (error as Error).message };
    }
  }
  if (typeof decoded.data === 'string' && /^\s*[[{]/.test(decoded.data)) {
    const inner = decode(decoded.data);
    return inner.ok ? { ...inner, repaired: true } : decoded;
  }
  return decoded;
}

/** Validates the data as it is (keys aligned to the schema), then any unambiguous reshaping of it. */
function judge<T>(data: unknown, schema: z.ZodType<T>): Judged<T> {
  const node = schemaNode(schema);
  const shapes = node ? candidateShapes(data, node) : [{ value: data, changes: [] }];
  let firstError: z.ZodError | null = null;
  for (const shape of shapes) {
    const parsed = schema.safeParse(shape.value);
    if (parsed.success) return { ok: true, value: parsed.data, repaired: shape.changes.length > 0 };
    firstError ??= parsed.error;
  }
  return { ok: false, error: firstError!.issues.map((i) => `- ${i.path.join('.') || '(root)'}: ${i.message}`).join('\n') };
}

/** The JSON Schema the model was shown; null for a schema that has none (then nothing is reshaped). */
function schemaNode(schema: z.ZodType): JsonSchemaNode | null {
  try {
    return strictJsonSchema(schema) as JsonSchemaNode;
  } catch {
    return null;
  }
}
