/**
 * The grammars a local model generates under, so that a reply has the shape its parser expects by
 * construction:
 * - a JSON artifact: the step's schema as JSON Schema for node-llama-cpp's grammar builder — objects
 *   closed, every property present (nullable where optional), anyOf as the builder's oneOf, and the length limits the grammar can
 *   enforce (minLength/maxLength, minItems/maxItems) kept. What it cannot express (string patterns,
 *   zod refinements such as a safe relative path) is dropped here and still checked by the parser,
 *   which re-asks with the error;
 * - one file: a single fenced code block (no line inside it may start with ```, so it closes once);
 * - several files: a path line, then a fenced block, per file.
 */
import { z } from 'zod';

/** Keywords the grammar builder does not take; their rules stay with zod's validation. */
const DROPPED = new Set(['$schema', 'pattern', 'format', 'default', 'examples', 'contentEncoding', 'exclusiveMinimum', 'exclusiveMaximum']);

export interface GrammarLimits {
  /** A length cap for strings whose schema sets none; null for none. */
  maxStringChars: number | null;
  /** An item cap for arrays whose schema sets none; null for none. */
  maxItems: number | null;
}

function close(node: unknown, limits: GrammarLimits): unknown {
  if (Array.isArray(node)) return node.map((n) => close(n, limits));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (DROPPED.has(key)) continue;
    // The grammar builder knows alternatives as oneOf only; to generate, the two mean the same.
    out[key === 'anyOf' ? 'oneOf' : key] =
      key === 'properties' ? Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, close(v, limits)])) : close(value, limits);
  }
  if (out.type === 'object' && out.properties) {
    out.additionalProperties = false;
    out.required = Object.keys(out.properties as object);
  }
  if (out.type === 'string' && limits.maxStringChars !== null && out.maxLength === undefined && out.enum === undefined) {
    out.maxLength = Math.max(limits.maxStringChars, typeof out.minLength === 'number' ? out.minLength : 0);
  }
  if (out.type === 'array' && limits.maxItems !== null && out.maxItems === undefined) {
    out.maxItems = Math.max(limits.maxItems, typeof out.minItems === 'number' ? out.minItems : 0);
  }
  return out;
}

/** The JSON Schema a structured reply is generated under (see the module comment for what it keeps). */
export function grammarJsonSchema(schema: z.ZodType, limits: GrammarLimits): Record<string, unknown> {
  return close(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }), limits) as Record<string, unknown>;
}

/** A code block's lines: any line but one that starts with three backticks (that would close it early). */
const BLOCK_RULES = String.raw`
lang ::= [a-zA-Z0-9+#._-]{0,16}
line ::= ([^${'`'}\n] [^\n]* | "${'`'}" ([^${'`'}\n] [^\n]*)? | "${'``'}" ([^${'`'}\n] [^\n]*)?)? "\n"
block ::= "${'```'}" lang "\n" line* "${'```'}"
`;

/** GBNF for a reply holding one file in one fenced block. */
export const CODE_BLOCK_GRAMMAR = `root ::= block "\\n"?\n${BLOCK_RULES}`;

/** GBNF for a reply holding several files, each a path line and then its fenced block. */
export const FILES_GRAMMAR = `root ::= file+\nfile ::= path "\\n" block "\\n"\npath ::= [a-zA-Z0-9_.@-] [a-zA-Z0-9_./@-]*\n${BLOCK_RULES}`;
