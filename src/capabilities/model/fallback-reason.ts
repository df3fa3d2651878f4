/**
 * Whether a failed call should go to the role's next model: only for what asking the same model again
 * cannot fix — the model is unknown to the endpoint, the prompt does not fit its context window, or its
 * replies stayed invalid after every re-ask. Transient faults are the retry loop's; budget, interrupts
 * and loops end the step whatever the model.
 */
import { SopworksError } from '../../ground/errors.ts';

/**
 * How common servers word a prompt longer than the context window: OpenAI and Azure
 * (`context_length_exceeded`, "maximum context length"), vLLM ("This model's maximum context length is …"),
 * llama.cpp's server ("exceeds the available context size", `exceed_context_size_error`), LM Studio
 * ("context length of only N tokens", "context overflow"), Ollama ("prompt too long", "exceeds context
 * length"), TGI ("`inputs` tokens + `max_new_tokens` must be <= N"), Mistral ("too large for model with N
 * maximum context length"), Anthropic-compatible gateways ("prompt is too long").
 */
const CONTEXT_OVERFLOW =
  /context[_ ]length[_ ]exceeded|maximum context length|context (window|size|length) (is |was )?(exceeded|too small)|exceeds? the (available |model'?s? )?context|exceed_context_size|context length of only|context overflow|(prompt|input) (is )?too long|max_new_tokens`? must be <=|maximum context|reduce the length of the (messages|prompt)/i;

export function isContextOverflow(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let e: unknown = error; e && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    if ((e as Error).name === 'ContextOverflowError') return true;
    const code = (e as { code?: unknown }).code;
    if (code === 'context_length_exceeded') return true;
    if (CONTEXT_OVERFLOW.test((e as Error).message ?? '')) return true;
  }
  return false;
}

export const MODEL_NOT_FOUND = 'model not found';

/** The reason to try the next model, or null when the error is not one another model could avoid. */
export function fallbackReason(error: unknown): string | null {
  if (!SopworksError.isInstance(error)) return null;
  if (error.code === 'REPLY_INVALID') return 'replies still invalid after the re-asks';
  if (error.code === 'MODEL_ERROR' || error.code === 'MODEL_NOT_FOUND') {
    if (error.code === 'MODEL_NOT_FOUND' || (error.cause as { status?: number } | undefined)?.status === 404) return MODEL_NOT_FOUND;
    if (isContextOverflow(error)) return 'context length exceeded';
  }
  return null;
}
