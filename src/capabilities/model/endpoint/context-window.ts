/**
 * The context window a server reports for a model in its model list, where it reports one: vLLM
 * (`max_model_len`), LM Studio and OpenRouter (`context_length`), Groq (`context_window`), llama.cpp's
 * server (`meta.n_ctx`, `meta.n_ctx_train`). The list is read as data from a server: zod first.
 */
import { z } from 'zod';
import { jsonAs } from '../../../ground/json-as.ts';

const ModelList = z.object({ data: z.array(z.looseObject({ id: z.string() })) });

/** Context-window fields servers put in a model list entry. */
export function contextWindowOf(entry: Record<string, unknown>): number | null {
  const meta = entry.meta as Record<string, unknown> | undefined;
  // llama.cpp's server: the context it runs with (n_ctx) before the one the model was trained on.
  for (const value of [entry.max_model_len, entry.context_length, entry.context_window, entry.max_context_length, meta?.n_ctx, meta?.n_ctx_train]) {
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  }
  return null;
}

/** The window of `model` in a model list's body, or null when the body or the entry says none. */
export function contextWindowIn(body: string, model: string): number | null {
  const entry = jsonAs(ModelList, body)?.data.find((m) => m.id === model);
  return entry ? contextWindowOf(entry) : null;
}
