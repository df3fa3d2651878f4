/**
 * OpenAI's `prompt_cache_key`: a request's key, combined with its prefix, routes it to the machine that
 * holds that prefix (developers.openai.com/api/docs/guides/prompt-caching), so a run's calls of one role
 * find what the role's calls before left in the cache. Sent where the endpoint is known to take it, never
 * where it is not — a server of one's own may refuse a field it does not know:
 * - `auto` (the default): OpenAI's own API only (no base URL, or api.openai.com);
 * - `on`: any endpoint (a proxy to OpenAI, a server that takes it); one that refuses it by name is not sent
 *   it again in the run, said once;
 * - `off`: never.
 */
export type PromptCacheKeySetting = 'auto' | 'on' | 'off';

export function sendsPromptCacheKey(setting: PromptCacheKeySetting, baseUrl: string | null): boolean {
  if (setting !== 'auto') return setting === 'on';
  if (baseUrl === null) return true;
  try {
    return new URL(baseUrl).hostname === 'api.openai.com';
  } catch {
    return false;
  }
}

/** An endpoint's refusal (400, 422) that names the key: OpenAI's "Unrecognized request argument", a validator's "extra inputs". */
export function rejectsPromptCacheKey(error: unknown): boolean {
  const status = (error as { status?: number }).status;
  return (status === 400 || status === 422) && /prompt_cache_key/i.test((error as Error)?.message ?? '');
}

/** The key of a run's role: the run's scope (a hash, never a name or a path) and the role. */
export const promptCacheKeyOf = (scope: string, role: string): string => `sopworks-${scope}-${role}`;

export class PromptCacheKeyRejected extends Error {
  constructor(readonly original: unknown) {
    super((original as Error)?.message ?? String(original));
    this.name = 'PromptCacheKeyRejected';
  }
}

export const promptCacheKeyNotice = (where: string, rejection: PromptCacheKeyRejected): string =>
  `The model endpoint ${where} rejected prompt_cache_key (${rejection.message.split('\n')[0]}): it is not sent again in this run. ` +
  'Set SOPWORKS_PROMPT_CACHE_KEY=off (or auto, which sends it to OpenAI only) to skip the rejected request next time.';
