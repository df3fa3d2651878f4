/**
 * The JSON Schema sent as `response_format` and shown in prompts, derived from the zod schema (declared
 * once). OpenAI's strict structured output wants every object closed (`additionalProperties: false`) with
 * every property required, and rejects some validation keywords; those limits stay enforced by zod on
 * our side, where a violation is re-asked with the error.
 */
import { z } from 'zod';

const UNSUPPORTED = new Set(['$schema', 'minLength', 'maxLength', 'minItems', 'maxItems', 'format']);

function tighten(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tighten);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (!UNSUPPORTED.has(key)) out[key] = key === 'properties' ? mapValues(value as Record<string, unknown>) : tighten(value);
  }
  if (out.type === 'object' && out.properties) {
    out.additionalProperties = false;
    out.required = Object.keys(out.properties as object);
  }
  return out;
}

const mapValues = (props: Record<string, unknown>) => Object.fromEntries(Object.entries(props).map(([k, v]) => [k, tighten(v)]));

const cache = new WeakMap<z.ZodType, Record<string, unknown>>();

export function strictJsonSchema(schema: z.ZodType): Record<string, unknown> {
  let json = cache.get(schema);
  if (!json) {
    json = tighten(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' })) as Record<string, unknown>;
    cache.set(schema, json);
  }
  return json;
}
