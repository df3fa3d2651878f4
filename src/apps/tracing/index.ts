/** apps/tracing: its public face — what other folders may use of it. */
export { tracedRun } from './traced-run.ts';
export { type TracingSettings, tracingSettings } from './tracing-settings.ts';
