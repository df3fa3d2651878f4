/**
 * Token counts when the provider reports none (the scripted model, some local servers). A bundled
 * tokenizer — never LangChain's own token counting, which downloads its ranks and stalls offline.
 */
import { countTokens as count } from 'gpt-tokenizer';
import type { ChatMessage } from './provider.ts';

/** Per-message framing tokens of the chat format. */
const PER_MESSAGE = 4;

export const countTextTokens = (text: string): number => count(text);

export const countPromptTokens = (messages: readonly ChatMessage[]): number => messages.reduce((sum, m) => sum + PER_MESSAGE + count(m.content), 3);
