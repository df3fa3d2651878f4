/** What the provider tells a person while a run goes on, by default: notices, and each transport retry as it happens. */
import pc from 'picocolors';
import type { ProviderHooks } from '../capabilities/model/index.ts';
import { cleanLine } from '../ground/terminal-text.ts';
import type { Lines, SessionHooks } from './hooks.ts';

export function providerLines(lines: Lines): ProviderHooks {
  return {
    onNotice: (text) => lines.out(pc.yellow(`notice: ${cleanLine(text)}`)),
    onRetry: (call, event) =>
      lines.out(
        `${pc.cyan(call.role.padEnd(16))}${pc.yellow('↻')} ${cleanLine(`${call.action}${call.key ? ` ${call.key}` : ''}`)}: ${cleanLine(event.reason)}; retry ${event.retry}/${event.maxRetries} in ${(event.waitMs / 1000).toFixed(1)}s${event.asked ? ' (as the endpoint asked)' : ''}`,
      ),
  };
}

/** Notices and retries as lines, and heard by the hooks' own provider hooks too, which may wrap the provider. */
export function providerHooksOf(hooks: SessionHooks): ProviderHooks {
  const lines = providerLines(hooks.lines);
  const more = hooks.provider;
  if (!more) return lines;
  return {
    onNotice: (text) => {
      lines.onNotice?.(text);
      more.onNotice?.(text);
    },
    onRetry: (call, event) => {
      lines.onRetry?.(call, event);
      more.onRetry?.(call, event);
    },
    ...(more.onQuotaWait ? { onQuotaWait: more.onQuotaWait } : {}),
    ...(more.wrap ? { wrap: more.wrap } : {}),
  };
}
