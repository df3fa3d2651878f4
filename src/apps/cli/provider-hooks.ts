/** What the provider tells the user while a run goes on: notices, and each transport retry as it happens. */
import pc from 'picocolors';
import type { ProviderHooks } from '../../capabilities/model/index.ts';
import type { Output } from './output.ts';
import { cleanLine } from '../../ground/terminal-text.ts';

export function providerHooks(io: Output): ProviderHooks {
  return {
    onNotice: (text) => io.out(pc.yellow(`notice: ${cleanLine(text)}`)),
    onRetry: (call, event) =>
      io.out(
        `${pc.cyan(call.role.padEnd(16))}${pc.yellow('↻')} ${cleanLine(`${call.action}${call.key ? ` ${call.key}` : ''}`)}: ${cleanLine(event.reason)}; retry ${event.retry}/${event.maxRetries} in ${(event.waitMs / 1000).toFixed(1)}s${event.asked ? ' (as the endpoint asked)' : ''}`,
      ),
  };
}
