/**
 * The grammars a local model generates under, so that a reply has the shape its parser expects by
 * construction:
 * - a JSON artifact: the step's schema as strict JSON Schema — objects closed, every property present
 *   (nullable where optional), its lengths, enumerations and keyword patterns kept (the `server`
 *   dialect of strict-json-schema.ts), and caps on the strings and arrays it leaves open
 *   (schema-caps.ts) — made a grammar by json-grammar.ts. What a grammar cannot say (zod refinements
 *   such as a safe relative path) is still checked by the parser, which re-asks;
 * - one file: a single fenced code block (no line inside it may start with ```, so it closes once);
 * - several files: a path line, then a fenced block, per file.
 */
import type { z } from 'zod';
import type { JsonSchemaNode } from '../../json-schema-node.ts';
import type { SchemaCaps } from '../../schema-caps.ts';
import { serverJsonSchema } from '../../strict-json-schema.ts';
import { jsonGrammar } from './json-grammar.ts';

/** The caps a grammar puts on strings and arrays whose schema sets none (schema-caps.ts). */
export type GrammarLimits = SchemaCaps;

/** The JSON Schema a structured reply is generated under (see the module comment for what it keeps). */
export function grammarJsonSchema(schema: z.ZodType, limits: GrammarLimits): Record<string, unknown> {
  return serverJsonSchema(schema, limits);
}

/** The GBNF a structured reply is generated under. */
export const artifactGrammar = (schema: z.ZodType, limits: GrammarLimits): string => jsonGrammar(grammarJsonSchema(schema, limits) as JsonSchemaNode);
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
