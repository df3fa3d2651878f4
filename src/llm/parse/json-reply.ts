/**
 * Structured replies: find the JSON in the reply (bare, fenced, or wrapped in prose), repair what is
 * mechanically repairable (trailing commas, comments, quotes — via jsonrepair), then validate with zod.
 * Never JSON.parse model text anywhere else.
 */
import { jsonrepair } from 'jsonrepair';
import type { z } from 'zod';
import { fencedBlocks } from './fenced-blocks.ts';
import { fail, ok, stripThinking, type ParseResult } from './result.ts';

function candidateJson(text: string): string | null {
  const fenced = fencedBlocks(text).find((b) => /^(json|jsonc|json5)?$/i.test(b.lang) && /^\s*[[{]/.test(b.content));
  if (fenced) return fenced.content.trim();
  const start = text.search(/[{[]/);
  if (start === -1) return null;
  const open = text[start]!;
  const end = text.lastIndexOf(open === '{' ? '}' : ']');
  return end > start ? text.slice(start, end + 1) : text.slice(start);
}

export function parseJsonReply<T>(raw: string, schema: z.ZodType<T>): ParseResult<T> {
  const text = stripThinking(raw);
  if (text === '') return fail('the reply was empty; reply with the JSON object');
  const candidate = candidateJson(text);
  if (candidate === null) return fail('the reply contains no JSON object; reply with only the JSON object');
  let data: unknown;
  let repaired = candidate !== text;
  try {
    data = JSON.parse(candidate);
  } catch {
    try {
      data = JSON.parse(jsonrepair(candidate));
      repaired = true;
    } catch (error) {
      return fail(`the reply is not valid JSON (${(error as Error).message}); reply with one valid JSON object`);
    }
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `- ${i.path.join('.') || '(root)'}: ${i.message}`).join('\n');
    return fail(`the JSON does not match the required schema:\n${issues}`);
  }
  return ok(parsed.data, repaired);
}
