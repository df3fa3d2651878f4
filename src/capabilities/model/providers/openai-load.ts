/**
 * The OpenAI-compatible provider, loaded when a run asks for it: its client (LangChain, LangSmith, the
 * OpenAI SDK) is about 500 modules, a third of what a CLI process loads, and a scripted or local run never
 * uses it. `import type` keeps the class's type here without loading it.
 */

import type { ModelSettings } from '../settings.ts';
import type { OpenAIProvider, OpenAIProviderHooks } from './openai.ts';

/** OpenAIProvider.create, the provider's module loaded on the first call. */
export async function createOpenAIProvider(settings: ModelSettings, hooks: OpenAIProviderHooks = {}): Promise<OpenAIProvider> {
  const { OpenAIProvider } = await import('./openai.ts');
  return OpenAIProvider.create(settings, hooks);
}
