/**
 * Caps on the strings and arrays of a JSON Schema that state no limit of their own. A small model
 * rambles inside valid JSON — one string until the output limit, or a list without end — and a reply
 * cut off there is invalid however long it was. Capped, the grammar (or a server's structured output)
 * closes the string or the list in time, and the artifact, which later prompts carry, stays within
 * what the context was planned for (context-plan.ts). Pure.
 */

export interface SchemaCaps {
  /** A length cap for strings whose schema sets none; null for none. */
  maxStringChars: number | null;
  /** An item cap for arrays whose schema sets none; null for none. */
  maxItems: number | null;
}

/** The schema with the caps added where it sets no limit (a limit it sets is kept). */
export function capSchema(node: unknown, caps: SchemaCaps): unknown {
  if (Array.isArray(node)) return node.map((n) => capSchema(n, caps));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] =
      key === 'properties'
        ? Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, capSchema(v, caps)]))
        : capSchema(value, caps);
  }
  // A type may be a list (`["string", "null"]`: zod's nullable).
  const types = Array.isArray(out.type) ? out.type : [out.type];
  if (types.includes('string') && caps.maxStringChars !== null && out.maxLength === undefined && out.enum === undefined) {
    out.maxLength = Math.max(caps.maxStringChars, typeof out.minLength === 'number' ? out.minLength : 0);
  }
  if (types.includes('array') && caps.maxItems !== null && out.maxItems === undefined) {
    out.maxItems = Math.max(caps.maxItems, typeof out.minItems === 'number' ? out.minItems : 0);
  }
  return out;
}
