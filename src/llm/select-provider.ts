/**
 * `--llm openai | scripted:<file>` → a provider. Without --llm: openai when an endpoint is configured,
 * otherwise a clear error that names the settings and the offline demo.
 */
import { SopworksError } from '../errors.ts';
import type { Settings } from '../config/settings.ts';
import type { CallMeta, Provider } from './provider.ts';
import type { RetryEvent } from './retry.ts';
import { ScriptedProvider } from './providers/scripted.ts';
import { loadScenario, type Scenario } from './scenario.ts';
import { applyProviderMiddleware, withMiddlewareHooks } from './provider-middleware.ts';

export type LlmChoice = { kind: 'openai' } | { kind: 'scripted'; file: string };

export function parseLlmFlag(value: string | undefined, settings: Settings): LlmChoice {
  if (value === undefined) {
    if (settings.openaiConfigured) return { kind: 'openai' };
    throw new SopworksError('NO_MODEL', 'No model is configured.', {
      hint:
        'Set OPENAI_API_KEY (OpenAI) or OPENAI_BASE_URL (Ollama, vLLM, LM Studio, llama.cpp) in the environment or .env, ' +
        'or run the offline demo: npm run demo',
    });
  }
  if (value === 'openai') return { kind: 'openai' };
  const scripted = /^scripted:(.+)$/.exec(value);
  if (scripted) return { kind: 'scripted', file: scripted[1]! };
  throw new SopworksError('USAGE', `Unknown --llm "${value}".`, { hint: 'Use --llm openai or --llm scripted:<scenario file>.' });
}

/**
 * The provider for a choice. A scripted choice needs its scenario (loaded first, since it may carry the
 * spec); an openai choice checks its endpoint before anything is written.
 */
export interface ProviderHooks {
  /** Something the user should know (e.g. a fallback from structured output). */
  onNotice?: (text: string) => void;
  /** A transport retry is about to happen. */
  onRetry?: (call: CallMeta, event: RetryEvent) => void;
}

export async function createProvider(
  choice: LlmChoice,
  scenario: Scenario | null,
  settings: Settings,
  model: string | undefined,
  hooks: ProviderHooks = {},
): Promise<Provider> {
  // A process may wrap every provider it makes (provider-middleware.ts: a queue worker's shared rate limits).
  return applyProviderMiddleware(await createBareProvider(choice, scenario, settings, model, withMiddlewareHooks(hooks)));
}

async function createBareProvider(choice: LlmChoice, scenario: Scenario | null, settings: Settings, model: string | undefined, hooks: ProviderHooks): Promise<Provider> {
  if (choice.kind === 'scripted') {
    if (model !== undefined) {
      throw new SopworksError('USAGE', '--model applies to --llm openai; a scripted run replays its scenario whatever the model.', {
        hint: 'Drop --model, or use --llm openai.',
      });
    }
    return new ScriptedProvider(`scripted:${choice.file}`, scenario ?? (await loadScenario(choice.file)), settings.scriptedLatencyMs);
  }
  const modelSettings = { ...settings.model, model: model ?? settings.model.model };
  if (!settings.openaiConfigured) {
    throw new SopworksError('NO_MODEL', '--llm openai needs an endpoint.', {
      hint: 'Set OPENAI_API_KEY (OpenAI) or OPENAI_BASE_URL (a compatible server) in the environment or .env.',
    });
  }
  await preflight(modelSettings.baseUrl ?? 'https://api.openai.com/v1', modelSettings.apiKey);
  // Loaded on demand: LangChain takes a second to import, and scripted runs never need it.
  const { OpenAIProvider } = await import('./providers/openai.ts');
  return OpenAIProvider.create(modelSettings, hooks);
}

/**
 * Asks the endpoint for its model list before anything is written, so an unreachable server or a wrong
 * key fails in a second with a clear message instead of in the middle of a run. Servers without a
 * model list are not refused.
 */
async function preflight(baseUrl: string, apiKey: string | null): Promise<void> {
  const url = `${baseUrl.replace(/\/$/, '')}/models`;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    throw new SopworksError('MODEL_UNREACHABLE', `Cannot reach the model endpoint ${baseUrl} (${cause}). Nothing was written.`, {
      hint: 'Check OPENAI_BASE_URL and that the server is running (e.g. `ollama serve`).',
    });
  }
  if (response.status === 401 || response.status === 403) {
    throw new SopworksError('MODEL_AUTH', `The model endpoint ${baseUrl} rejected the API key (${response.status}). Nothing was written.`, {
      hint: 'Check OPENAI_API_KEY in the environment or .env.',
    });
  }
}
