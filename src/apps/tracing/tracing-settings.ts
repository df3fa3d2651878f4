/**
 * Whether a run is traced, from the environment alone: read before OpenTelemetry's modules (about 250 of
 * them) are loaded, which happens only when an endpoint is set (traced-run.ts).
 */

export interface TracingSettings {
  /** The OTLP/HTTP traces URL, or null when tracing is off. */
  url: string | null;
  captureContent: boolean;
}

/** Tracing's settings from the environment: the standard OTel variables, or sopworks' own. */
export function tracingSettings(env: NodeJS.ProcessEnv = process.env): TracingSettings {
  const captureContent = /^(true|1)$/i.test(env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT ?? env.SOPWORKS_OTEL_CAPTURE_CONTENT ?? '');
  if (/^true$/i.test(env.OTEL_SDK_DISABLED ?? '')) return { url: null, captureContent };
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.SOPWORKS_OTEL_ENDPOINT?.trim();
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const url = traces || (base ? `${base.replace(/\/$/, '')}/v1/traces` : null);
  return { url: url || null, captureContent };
}
