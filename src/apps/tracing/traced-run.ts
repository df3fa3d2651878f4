/** Runs a run or a resume with its OpenTelemetry traces when an endpoint is set (run-tracing.ts, loaded only then). */
import type { RunEvent } from '../../company/index.ts';
import { SOPWORKS_VERSION } from '../../ground/version.ts';
import type { SessionResult } from '../../session/index.ts';
import { tracingSettings } from './tracing-settings.ts';

export async function tracedRun(
  kind: 'run' | 'resume',
  warn: (line: string) => void,
  onEvent: (event: RunEvent) => void,
  go: (onEvent: (event: RunEvent) => void) => Promise<SessionResult>,
): Promise<SessionResult> {
  const settings = tracingSettings();
  if (!settings.url) return go(onEvent);
  const { startRunTracing } = await import('./run-tracing.ts');
  const tracing = startRunTracing(settings, SOPWORKS_VERSION, warn, kind);
  if (!tracing) return go(onEvent);
  let result: SessionResult;
  try {
    result = await go((event) => {
      onEvent(event);
      tracing.onEvent(event);
    });
  } catch (error) {
    await tracing.finish({ error });
    throw error;
  }
  await tracing.finish(result.run);
  return result;
}
