export type ParseResult<T> = { ok: true; value: T; repaired: boolean } | { ok: false; error: string };

export const ok = <T>(value: T, repaired = false): ParseResult<T> => ({ ok: true, value, repaired });
export const fail = <T>(error: string): ParseResult<T> => ({ ok: false, error });

const THOUGHT = /<(think|thinking)>[\s\S]*?<\/\1>/gi;
const CLOSING = /<\/think(?:ing)?>/gi;
const OPENING = /<think(?:ing)?>/i;

/**
 * Reasoning models may think aloud before answering; the answer is what follows. Some servers drop the
 * opening tag (the chat template adds it), so a lone closing tag ends the reasoning too; an opening tag
 * that is never closed means the reply stopped while still reasoning, and holds no answer.
 */
export function stripThinking(text: string): string {
  let answer = text.replace(THOUGHT, '');
  const closings = [...answer.matchAll(CLOSING)];
  const lastClosing = closings.at(-1);
  if (lastClosing) answer = answer.slice(lastClosing.index + lastClosing[0].length);
  const opening = answer.search(OPENING);
  if (opening !== -1) answer = answer.slice(0, opening);
  return answer.trim();
}

/** Why a reply holds nothing to parse, and what to send instead. */
export function emptyReplyError(raw: string, wanted: string): string {
  return raw.trim() === ''
    ? `the reply was empty; reply with ${wanted}`
    : `the reply was empty apart from its reasoning (<think>…</think>); after reasoning, reply with ${wanted}`;
}
