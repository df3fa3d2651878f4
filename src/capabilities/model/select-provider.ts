/**
 * `--llm openai | scripted:<file>` → a provider. Without --llm: openai when an endpoint is configured,
 * otherwise a clear error that names the settings and the offline demo.
 */
import path from 'node:path';
import { SopworksError } from '../../ground/errors.ts';
import { cleanLine } from '../../ground/terminal-text.ts';
import { ChaosProvider } from './chaos/chaos-provider.ts';
import type { ChaosSettings } from './chaos/chaos-settings.ts';
import { describePlan, planContext, plannedSteps, type SopPrompt } from './context-plan.ts';
import { preflight } from './endpoint/preflight.ts';
import { modelIdentity } from './model-identity.ts';
import { priceFor } from './prices.ts';
import type { CallMeta, ModelRoute, Provider } from './provider.ts';
import { createOpenAIProvider } from './providers/openai-load.ts';
import { RoutedProvider } from './providers/routed.ts';
import { ScriptedProvider } from './providers/scripted.ts';
import type { QuotaWait, RetryEvent } from './retry.ts';
import { modelLabel, type ResolvedModel, type RoleModel, type RoleModelRecord, resolveRoleModels, roleModelsRecord } from './role-model.ts';
import { loadScenario, type Scenario } from './scenario.ts';
import type { Settings } from './settings.ts';
import { countPromptTokens } from './token-count.ts';

export type LlmChoice =
  | { kind: 'openai' }
  /** `chaos`: spoil that share of its replies the ways real models do (`--chaos`, chaos/chaos-provider.ts). */
  | { kind: 'scripted'; file: string; chaos?: ChaosSettings | null }
  /** A GGUF model run in-process; `model`: a cached model's name or a file's path, null for the cache's newest. */
  | { kind: 'local'; model: string | null };

export function parseLlmFlag(value: string | undefined, settings: Settings): LlmChoice {
  if (value === undefined) {
    if (settings.openaiConfigured) return { kind: 'openai' };
    throw new SopworksError('NO_MODEL', 'No model is configured.', {
      hint:
        'Run `sopworks init` to choose one once for every folder; or set OPENAI_API_KEY (OpenAI) or OPENAI_BASE_URL (Ollama, vLLM, LM Studio, llama.cpp) ' +
        'in the environment or .env; or run a GGUF model in-process with --llm local (`sopworks models pull qwen2.5-coder-1.5b` first); ' +
        'or try the offline demo: --llm scripted:<scenario>, e.g. examples/wordfreq.yaml',
    });
  }
  if (value === 'openai') return { kind: 'openai' };
  const scripted = /^scripted:(.+)$/.exec(value);
  if (scripted) return { kind: 'scripted', file: scripted[1]! };
  const local = /^local(?::(.+))?$/.exec(value);
  if (local) return { kind: 'local', model: local[1] ?? null };
  throw new SopworksError('USAGE', `Unknown --llm "${value}".`, {
    hint: 'Use --llm openai, --llm local[:<model name or .gguf path>] or --llm scripted:<scenario file>.',
  });
}

/**
 * The provider for a choice. A scripted choice needs its scenario (loaded first, since it may carry the
 * spec); an openai choice checks its endpoint before anything is written.
 */
export interface ProviderHooks {
  /** Something the user should know (e.g. a fallback from structured output). */
  onNotice?: (text: string) => void;
  /** A transport retry is about to happen (a 429 says how long the endpoint asked to wait). */
  onRetry?: (call: CallMeta, event: RetryEvent) => void;
  /** A limit's reset is about to be waited out (SOPWORKS_WAIT_FOR_QUOTA). */
  onQuotaWait?: (call: CallMeta, wait: QuotaWait) => void;
  /** Wraps every provider made for the run (a queue worker's shared rate limits, src/apps/queue/rate-limited-provider.ts). */
  wrap?: (provider: Provider) => Provider;
}

const wrapped = (provider: Provider, hooks: ProviderHooks): Provider => (hooks.wrap ? hooks.wrap(provider) : provider);

export async function createProvider(
  choice: LlmChoice,
  scenario: Scenario | null,
  settings: Settings,
  model: string | undefined,
  hooks: ProviderHooks = {},
  prompts: readonly SopPrompt[] = [],
): Promise<Provider> {
  return wrapped(await createBareProvider(choice, scenario, settings, model, hooks, prompts), hooks);
}

async function createBareProvider(
  choice: LlmChoice,
  scenario: Scenario | null,
  settings: Settings,
  model: string | undefined,
  hooks: ProviderHooks,
  prompts: readonly SopPrompt[],
): Promise<Provider> {
  if (choice.kind === 'scripted') {
    if (model !== undefined) {
      throw new SopworksError('USAGE', '--model applies to --llm openai; a scripted run replays its scenario whatever the model.', {
        hint: 'Drop --model, or use --llm openai.',
      });
    }
    // Named by its absolute path, as run.json keeps it: a resumed run names it the same way.
    const scripted = new ScriptedProvider(modelIdentity(`scripted:${choice.file}`), scenario ?? (await loadScenario(choice.file)), settings.scriptedLatencyMs);
    if (!choice.chaos || choice.chaos.rate === 0) return scripted;
    const retry = { maxRetries: settings.model.maxRetries, baseDelayMs: settings.model.retryBaseMs, maxDelayMs: settings.model.retryMaxMs };
    return new ChaosProvider(scripted, path.basename(choice.file), choice.chaos, retry, hooks.onRetry);
  }
  if (choice.kind === 'local') {
    // Loaded on demand: node-llama-cpp is an optional dependency with native binaries.
    const { createLocalProvider } = await import('./providers/local/create-local-provider.ts');
    return createLocalProvider(choice.model ?? model ?? null, settings, prompts);
  }
  const modelSettings = { ...settings.model, model: model ?? settings.model.model };
  if (!settings.openaiConfigured) {
    throw new SopworksError('NO_MODEL', '--llm openai needs an endpoint.', {
      hint: 'Set OPENAI_API_KEY (OpenAI) or OPENAI_BASE_URL (a compatible server) in the environment or .env.',
    });
  }
  const checked = await preflight({
    baseUrl: modelSettings.baseUrl ?? 'https://api.openai.com/v1',
    apiKey: modelSettings.apiKey,
    model: modelSettings.model,
    timeoutMs: modelSettings.timeoutMs,
  });
  // A window that is known (set, or in the server's model list) gets limits planned for it, as a local model does.
  const window = settings.contextWindow ?? checked.contextWindow;
  const plan =
    window !== null && prompts.length > 0
      ? planContext(window, plannedSteps(prompts, countPromptTokens), { replyTokens: modelSettings.maxOutputTokens })
      : null;
  const planned = plan
    ? {
        ...modelSettings,
        maxOutputTokens: settings.explicit.maxOutputTokens ? modelSettings.maxOutputTokens : plan.replyTokens,
        maxContinuations: settings.explicit.maxContinuations ? modelSettings.maxContinuations : plan.maxContinuations,
      }
    : modelSettings;
  const provider = await createOpenAIProvider(planned, hooks);
  if (plan) {
    provider.fitTo(plan);
    (hooks.onNotice ?? ((text: string) => process.stderr.write(`notice: ${cleanLine(text)}\n`)))(
      `${describePlan(plan)} (${settings.contextWindow ? 'SOPWORKS_CONTEXT_WINDOW' : "from the server's model list"})`,
    );
  }
  return provider;
}

/** A run's provider when roles may have models of their own, and what run.json keeps of them. */
export interface RoleRoutedProvider {
  provider: Provider;
  /** Each role's models, when any role has its own or fallbacks; null when one model answers every role. */
  roleModels: Record<string, RoleModelRecord> | null;
}

/**
 * The provider for a run whose roles may name their own models (company.yaml, `--model-for`, or what
 * run.json kept): one client per distinct model and endpoint, each endpoint checked before anything is
 * written. When every role would ask the run's one model, this is `createProvider` unchanged.
 */
export async function createProviderForRoles(
  choice: LlmChoice,
  scenario: Scenario | null,
  settings: Settings,
  model: string | undefined,
  hooks: ProviderHooks,
  roles: readonly { id: string; model?: RoleModel | undefined }[],
  modelFor: Record<string, string>,
  /** The SOP's prompts, for a local model's limits (context-plan.ts). */
  prompts: readonly SopPrompt[] = [],
): Promise<RoleRoutedProvider> {
  if (choice.kind !== 'openai') {
    if (Object.keys(modelFor).length > 0) {
      throw new SopworksError(
        'USAGE',
        `--model-for applies to --llm openai; ${choice.kind === 'scripted' ? 'a scripted run replays its scenario whatever the model' : 'a local run asks its one model'}.`,
        {
          hint: 'Drop --model-for, or use --llm openai.',
        },
      );
    }
    return { provider: await createProvider(choice, scenario, settings, model, hooks, prompts), roleModels: null };
  }
  const base = { ...settings.model, model: model ?? settings.model.model };
  const chains = resolveRoleModels(base, roles, modelFor);
  const ownModels = Object.values(chains).some(
    (chain) => chain.length > 1 || chain[0]!.price !== null || JSON.stringify(chain[0]!.settings) !== JSON.stringify(base),
  );
  if (!ownModels) return { provider: await createProvider(choice, null, settings, model, hooks, prompts), roleModels: null };
  if (!settings.openaiConfigured && Object.values(chains).some((chain) => chain.some((m) => m.settings.baseUrl === null && m.settings.apiKey === null))) {
    throw new SopworksError('NO_MODEL', '--llm openai needs an endpoint.', {
      hint: 'Set OPENAI_API_KEY (OpenAI) or OPENAI_BASE_URL (a compatible server) in the environment or .env, or give each role a baseUrl in sops/company.yaml.',
    });
  }
  // Each endpoint is checked once, with the last model a chain there falls back to: a first model the
  // endpoint does not know is what its fallbacks are for, not a reason to refuse the run.
  const endpointOf = (s: ResolvedModel['settings']) => `${s.baseUrl ?? 'https://api.openai.com/v1'}\u0000${s.apiKey ?? ''}`;
  const lastResort = new Map<string, ResolvedModel['settings']>();
  for (const chain of [...Object.values(chains), [{ settings: base }]]) for (const { settings: s } of chain) lastResort.set(endpointOf(s), s);
  const checked = new Map<string, Promise<void>>();
  const clients = new Map<string, Promise<ModelRoute>>();
  const routeOf = (resolved: ResolvedModel): Promise<ModelRoute> => {
    const s = resolved.settings;
    const endpoint = endpointOf(s);
    if (!checked.has(endpoint)) {
      const probe = lastResort.get(endpoint)!;
      checked.set(
        endpoint,
        preflight({ baseUrl: probe.baseUrl ?? 'https://api.openai.com/v1', apiKey: probe.apiKey, model: probe.model, timeoutMs: probe.timeoutMs }).then(
          () => undefined,
        ),
      );
    }
    const key = JSON.stringify([s, resolved.price]);
    let route = clients.get(key);
    if (!route) {
      route = checked.get(endpoint)!.then(async () => {
        const provider = wrapped(await createOpenAIProvider(s, hooks), hooks);
        const price = resolved.price ? { inputPerMTok: resolved.price.input, outputPerMTok: resolved.price.output } : priceFor(s.model, settings.price);
        return { label: provider.label, provider, price, maxOutputTokens: s.maxOutputTokens * (1 + s.maxContinuations) };
      });
      clients.set(key, route);
    }
    return route;
  };
  const routed: Record<string, ModelRoute[]> = {};
  for (const [role, chain] of Object.entries(chains)) routed[role] = await Promise.all(chain.map(routeOf));
  const others = await routeOf({ settings: base, apiKeyEnv: null, price: null });
  const label = `openai · ${Object.entries(chains)
    .map(([role, chain]) => `${role}: ${chain.map((m) => modelLabel(m.settings)).join(' → ')}`)
    .join(' · ')}`;
  return { provider: new RoutedProvider(label, routed, [others]), roleModels: roleModelsRecord(chains) };
}
