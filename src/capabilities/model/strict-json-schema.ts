/**
 * The JSON Schema sent as `response_format` and shown in prompts, derived from the zod schema (declared
 * once). Strict structured output wants every object closed (`additionalProperties: false`) with every
 * property required. What else travels depends on who reads it:
 * - `openai` (OpenAI's own API, and the prompt): enumerations and patterns (a diagram's keyword); not
 *   the length keywords its strict mode rejects — zod still checks those, and a violation is re-asked;
 * - `server` (vLLM, llama.cpp's server, Ollama, LM Studio, which turn the schema into a grammar): the
 *   lengths too, and the caps a run puts on strings and arrays that state none (schema-caps.ts), so the
 *   same constraints bind a server's model as the local engine's grammar does.
 */
import { z } from 'zod';
import { capSchema, type SchemaCaps } from './schema-caps.ts';

export type SchemaDialect = 'openai' | 'server';

const ALWAYS_DROPPED = ['$schema', 'format', 'default'];
const LENGTHS = ['minLength', 'maxLength', 'minItems', 'maxItems'];

function tighten(node: unknown, dropped: ReadonlySet<string>): unknown {
  if (Array.isArray(node)) return node.map((n) => tighten(n, dropped));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (dropped.has(key)) continue;
    out[key] =
      key === 'properties'
        ? Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, tighten(v, dropped)]))
        : tighten(value, dropped);
  }
  if (out.type === 'object' && out.properties) {
    out.additionalProperties = false;
    out.required = Object.keys(out.properties as object);
  }
  return out;
}

const DROPPED: Record<SchemaDialect, ReadonlySet<string>> = {
  openai: new Set([...ALWAYS_DROPPED, ...LENGTHS]),
  server: new Set(ALWAYS_DROPPED),
};

const cache: Record<SchemaDialect, WeakMap<z.ZodType, Record<string, unknown>>> = { openai: new WeakMap(), server: new WeakMap() };

export function strictJsonSchema(schema: z.ZodType, dialect: SchemaDialect = 'openai'): Record<string, unknown> {
  let json = cache[dialect].get(schema);
  if (!json) {
    json = tighten(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }), DROPPED[dialect]) as Record<string, unknown>;
    cache[dialect].set(schema, json);
  }
  return json;
}

/** The schema a server gets: strict, with every length the zod schema states and the run's caps. */
export function serverJsonSchema(schema: z.ZodType, caps: SchemaCaps | null): Record<string, unknown> {
  const strict = strictJsonSchema(schema, 'server');
  return caps ? (capSchema(strict, caps) as Record<string, unknown>) : strict;
}
