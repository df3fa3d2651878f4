/**
 * A place for a process to wrap every provider it creates — a queue worker puts its shared rate
 * limits here — without each command knowing about it. A middleware sees the provider after it is made
 * and the transport retries it makes (a 429 and the wait it asked for). None is installed by default.
 */
import type { CallMeta, Provider } from './provider.ts';
import type { QuotaWait, RetryEvent } from './retry.ts';

/** The shape of select-provider.ts' ProviderHooks, repeated here so neither module imports the other's. */
export interface ProviderHooks {
  onNotice?: (text: string) => void;
  onRetry?: (call: CallMeta, event: RetryEvent) => void;
  onQuotaWait?: (call: CallMeta, wait: QuotaWait) => void;
}

export interface ProviderMiddleware {
  wrap(provider: Provider): Provider;
  hooks?: ProviderHooks;
}

const installed: ProviderMiddleware[] = [];

export function installProviderMiddleware(middleware: ProviderMiddleware): () => void {
  installed.push(middleware);
  return () => {
    const at = installed.indexOf(middleware);
    if (at >= 0) installed.splice(at, 1);
  };
}

/** The hooks of the command and of every middleware, all called. */
export function withMiddlewareHooks(hooks: ProviderHooks): ProviderHooks {
  if (installed.length === 0) return hooks;
  const all = [hooks, ...installed.map((m) => m.hooks ?? {})];
  return {
    onNotice: (text) => all.forEach((h) => h.onNotice?.(text)),
    onRetry: (call, event) => all.forEach((h) => h.onRetry?.(call, event)),
    onQuotaWait: (call, wait) => all.forEach((h) => h.onQuotaWait?.(call, wait)),
  };
}

export function applyProviderMiddleware(provider: Provider): Provider {
  return installed.reduce((inner, middleware) => middleware.wrap(inner), provider);
}
