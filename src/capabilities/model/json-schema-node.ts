/**
 * The part of a JSON Schema (as zod's `toJSONSchema` writes it) that says where keys and values go and
 * what bounds them: read by the reply's shape repairs (parse/align-to-schema.ts) and by the local
 * engine's grammar (providers/local/json-grammar.ts).
 */
export interface JsonSchemaNode {
  type?: string | string[];
  properties?: Record<string, JsonSchemaNode>;
  items?: JsonSchemaNode;
  anyOf?: JsonSchemaNode[];
  oneOf?: JsonSchemaNode[];
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  /** An integer's or number's least value (kept by the grammar for integers at 0 and 1: counts and numbers from 1). */
  minimum?: number;
}
