/**
 * Whether a request fits the model's context window, checked before it is sent (issue 29): a prompt
 * that cannot be answered within the window is never sent, and the step fails saying by how much.
 */
import { SopworksError } from '../../ground/errors.ts';
import { type CallMeta, type ChatMessage, describeCall, type ModelRoute, type ReplyShape } from './provider.ts';

/** The tokens a request keeps for its reply on a route: per shape when the provider says, else one request's. */
export function replyAllowanceOf(request: { output?: ReplyShape }, route: ModelRoute): number {
  if (request.output && route.provider.replyAllowanceFor && route.provider.contextWindow !== undefined) return route.provider.replyAllowanceFor(request.output);
  return route.provider.replyAllowance ?? route.maxOutputTokens;
}

/**
 * What a prompt says of its reply's length on a route: one request's limit (the max_tokens it is sent
 * with) and, when a reply cut off there is continued, the most all its parts may take (null: it is not).
 */
export function replyLimitsOf(request: { output?: ReplyShape }, route: ModelRoute): { replyTokens: number; continuedTokens: number | null } {
  const { provider } = route;
  const whole = request.output && provider.replyAllowanceFor ? provider.replyAllowanceFor(request.output) : replyAllowanceOf(request, route);
  const once = provider.outputLimit;
  return once !== undefined && once < whole ? { replyTokens: once, continuedTokens: whole } : { replyTokens: whole, continuedTokens: null };
}

import { countPromptTokens } from './token-count.ts';

/**
 * Before any request: its prompt plus the tokens kept for its reply must fit the model's context window,
 * when the window is known; otherwise the step fails saying by how much (and a role with fallbacks asks
 * its next model: the words "context length exceeded" make it a fallback reason).
 */
export function checkFits(request: { call: CallMeta; output?: ReplyShape }, route: ModelRoute, messages: readonly ChatMessage[]): void {
  const window = route.provider.contextWindow;
  if (!window) return;
  const prompt = route.provider.countPromptTokens?.(messages) ?? countPromptTokens(messages);
  const reply = replyAllowanceOf(request, route);
  if (prompt + reply <= window) return;
  throw new SopworksError(
    'MODEL_ERROR',
    `The prompt for ${describeCall(request.call)} is ${prompt} tokens; with ${reply} kept for the reply it does not fit ${route.label}'s context window of ${window} tokens (context length exceeded by ${prompt + reply - window}).`,
    {
      hint: "Give the model a larger context (SOPWORKS_LOCAL_CONTEXT for --llm local; SOPWORKS_CONTEXT_WINDOW and the server's own setting for a server), lower SOPWORKS_MAX_OUTPUT_TOKENS, or use a smaller SOP; then `sopworks resume <project folder>`.",
    },
  );
}
