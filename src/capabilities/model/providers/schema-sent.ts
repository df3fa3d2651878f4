/**
 * The JSON Schema a structured request sends: OpenAI's own API takes its strict subset (the one the
 * prompt shows); any other server turns the schema into a grammar and gets every constraint — lengths,
 * and the run's caps on strings and arrays that state none (strict-json-schema.ts, schema-caps.ts).
 */
import type { CompletionRequest } from '../provider.ts';
import type { SchemaCaps } from '../schema-caps.ts';
import { type SchemaDialect, serverJsonSchema } from '../strict-json-schema.ts';

/** Who reads the schema: OpenAI's own API, or another server (`OPENAI_BASE_URL`). */
export const dialectOf = (baseUrl: string | null): SchemaDialect =>
  baseUrl === null || /^https?:\/\/api\.openai\.com(\/|$)/.test(baseUrl) ? 'openai' : 'server';

export function schemaSent(request: CompletionRequest, baseUrl: string | null, caps: SchemaCaps | null): Record<string, unknown> {
  const output = request.output;
  if (dialectOf(baseUrl) === 'openai' || output?.kind !== 'json') return request.jsonSchema!.schema;
  return serverJsonSchema(output.schema, caps);
}
