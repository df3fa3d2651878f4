export type ParseResult<T> = { ok: true; value: T; repaired: boolean } | { ok: false; error: string };

export const ok = <T>(value: T, repaired = false): ParseResult<T> => ({ ok: true, value, repaired });
export const fail = <T>(error: string): ParseResult<T> => ({ ok: false, error });

/** Reasoning models may think aloud before answering; the answer is what follows. */
export const stripThinking = (text: string): string => text.replace(/<think>[\s\S]*?<\/think>/gi, '').trim();
