/** An endpoint that refuses structured output by name (vLLM, LM Studio, older llama.cpp): the provider then asks without it. */

/** An endpoint's error that names the response_format it cannot take. */
const REJECTS_FORMAT = /response_format|json_schema|json_object|structured output|guided_json/i;

export class StructuredOutputRejected extends Error {
  constructor(readonly original: unknown) {
    super((original as Error)?.message ?? String(original));
    this.name = 'StructuredOutputRejected';
  }
}

export function rejectsFormat(error: unknown): boolean {
  const status = (error as { status?: number }).status;
  if (status === undefined || status === 429 || status === 401 || status === 403 || status === 404) return false;
  return REJECTS_FORMAT.test((error as Error)?.message ?? '');
}
