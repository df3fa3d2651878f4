/** Runs a run or a resume with its OpenTelemetry traces when an endpoint is set (src/apps/tracing/run-tracing.ts). */
import fs from 'node:fs';
import type { RunResult } from '../../company/index.ts';
import type { RunEvent } from '../../company/index.ts';
import { startRunTracing, tracingSettings } from '../tracing/index.ts';
import type { Output } from './output.ts';

const VERSION = (JSON.parse(fs.readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export async function withTracing(
  kind: 'run' | 'resume',
  io: Output,
  onEvent: (event: RunEvent) => void,
  go: (onEvent: (event: RunEvent) => void) => Promise<RunResult>,
): Promise<RunResult> {
  const tracing = startRunTracing(tracingSettings(), VERSION, (line) => io.err(line), kind);
  if (!tracing) return go(onEvent);
  let result: RunResult;
  try {
    result = await go((event) => {
      onEvent(event);
      tracing.onEvent(event);
    });
  } catch (error) {
    await tracing.finish({ error });
    throw error;
  }
  await tracing.finish(result);
  return result;
}
