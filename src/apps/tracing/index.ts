/** apps/tracing: its public face — what other folders may use of it. */
export { startRunTracing, tracingSettings } from './run-tracing.ts';
export { tracedRun } from './traced-run.ts';
