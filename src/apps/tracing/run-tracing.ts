/**
 * OpenTelemetry traces of a run, off unless an OTLP endpoint is set (`OTEL_EXPORTER_OTLP_ENDPOINT`,
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, or `SOPWORKS_OTEL_ENDPOINT`). An observer of the run's events — it
 * never changes what a run does: the run is the root span; each role an `invoke_agent` span under it; each
 * model call a `chat` span under its role, in the GenAI semantic conventions (`gen_ai.operation.name`,
 * `gen_ai.request.model`, `gen_ai.usage.input_tokens`/`output_tokens`, `gen_ai.agent.name`); each sandboxed
 * test round and each commit a span of its own; the run's outcome and cost on the root. Prompt and reply
 * text only with `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`. An endpoint that does not answer
 * is warned about once and the run goes on.
 */
import { context, type Span, SpanKind, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';
import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { UsageMeter } from '../../capabilities/model/index.ts';
import type { RunEvent } from '../../company/index.ts';
import type { TracingSettings } from './tracing-settings.ts';

export interface RunOutcomeForTrace {
  outcome: string;
  reason: string;
  usage: UsageMeter;
}

export interface RunTracing {
  onEvent(event: RunEvent): void;
  /** Ends every span, the run's with its outcome and cost, and sends what is left; bounded in time. */
  finish(result: RunOutcomeForTrace | { error: unknown }): Promise<void>;
}

/** How long the end of a run waits for the last spans to be sent. */
const FLUSH_LIMIT_MS = 5_000;

export function startRunTracing(settings: TracingSettings, version: string, warn: (line: string) => void, kind: 'run' | 'resume'): RunTracing | null {
  if (!settings.url) return null;
  const exporter = new WarnOnceExporter(new OTLPTraceExporter({ url: settings.url, timeoutMillis: FLUSH_LIMIT_MS }), settings.url, warn);
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'sopworks', 'service.version': version }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  return new RunSpans(provider.getTracer('sopworks', version), provider, settings.captureContent, kind);
}

class WarnOnceExporter implements SpanExporter {
  private warned = false;
  constructor(
    private readonly inner: SpanExporter,
    private readonly url: string,
    private readonly warn: (line: string) => void,
  ) {}
  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.inner.export(spans, (result) => {
      if (result.code !== ExportResultCode.SUCCESS && !this.warned) {
        this.warned = true;
        this.warn(`warning: traces could not be sent to ${this.url} (${result.error?.message ?? 'no answer'}); the run goes on without them.`);
      }
      done(result);
    });
  }
  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

/** "openai:gpt-4o at http://host:8000/v1" → its parts, as the conventions name them. */
function modelOf(label: string): { provider: string; model: string; server: string | null } {
  const match = /^([\w-]+):(.*?)(?: at (\S+))?$/.exec(label);
  if (!match) return { provider: 'unknown', model: label, server: null };
  return { provider: match[1]!, model: match[1] === 'scripted' ? 'scripted' : match[2]!, server: match[3] ?? null };
}

class RunSpans implements RunTracing {
  private run: Span | null = null;
  private readonly roles = new Map<string, Span>();
  private readonly calls = new Map<string, Span>();
  private readonly tests = new Map<string, Span>();

  constructor(
    private readonly tracer: Tracer,
    private readonly provider: BasicTracerProvider,
    private readonly captureContent: boolean,
    private readonly kind: 'run' | 'resume',
  ) {}

  onEvent(event: RunEvent): void {
    switch (event.kind) {
      case 'start': {
        const model = modelOf(event.model);
        this.run = this.tracer.startSpan(`sopworks ${this.kind} ${event.project}`, {
          kind: SpanKind.INTERNAL,
          attributes: {
            'sopworks.project': event.project,
            'sopworks.command': this.kind,
            'sopworks.roles': event.roles,
            'gen_ai.provider.name': model.provider,
          },
        });
        return;
      }
      case 'notice':
        this.run?.addEvent('notice', { 'sopworks.notice': event.text });
        return;
      case 'message':
        this.run?.addEvent(`message ${event.message.type}`, {
          'sopworks.message.id': event.message.id,
          'sopworks.message.from': event.message.from,
          'sopworks.message.to': event.message.to,
        });
        return;
      case 'commit':
        this.tracer
          .startSpan('git commit', { attributes: { 'sopworks.commit.subject': event.subject, 'gen_ai.agent.name': event.role } }, this.under(event.role))
          .end();
        return;
      case 'tests-start':
        this.tests.set(
          event.role,
          this.tracer.startSpan(
            'sandbox tests',
            { attributes: { 'gen_ai.agent.name': event.role, 'sopworks.tests.started': event.detail } },
            this.under(event.role),
          ),
        );
        return;
      case 'tests-end': {
        const span = this.tests.get(event.role);
        this.tests.delete(event.role);
        span?.setAttributes({ 'sopworks.tests.result': event.detail, 'sopworks.tests.passed': event.passed });
        // The verdict is the event's, never read from its text ("round 3: failed (1 passed, 2 failed)").
        if (span && !event.passed) span.setStatus({ code: SpanStatusCode.ERROR, message: event.detail });
        span?.end();
        return;
      }
      case 'model':
        this.onModel(event.event);
        return;
    }
  }

  private onModel(event: Extract<RunEvent, { kind: 'model' }>['event']): void {
    const id = `${event.call.role}\u0000${event.call.action}\u0000${event.call.key ?? ''}`;
    if (event.kind === 'call-start') {
      const span = this.tracer.startSpan(
        `chat ${event.call.action}`,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            'gen_ai.operation.name': 'chat',
            'gen_ai.agent.name': event.call.role,
            'sopworks.action': event.call.action,
            ...(event.call.key ? { 'sopworks.key': event.call.key } : {}),
          },
        },
        this.under(event.call.role),
      );
      this.calls.set(id, span);
      return;
    }
    const span = this.calls.get(id);
    if (!span) return;
    if (event.kind === 'call-repair') {
      span.addEvent('re-ask', { 'sopworks.attempt': event.attempt, 'sopworks.error': event.error.slice(0, 500) });
      return;
    }
    if (event.kind === 'call-fallback') {
      span.addEvent('fallback', { 'sopworks.from': event.from, 'sopworks.to': event.to, 'sopworks.reason': event.reason });
      return;
    }
    // Progress is for people watching; the span's end has the counts.
    if (event.kind === 'call-progress') return;
    this.calls.delete(id);
    const record = event.record;
    const model = modelOf(record.model ?? 'unknown');
    span.updateName(`chat ${model.model}`);
    span.setAttributes({
      'gen_ai.provider.name': model.provider,
      'gen_ai.request.model': model.model,
      'gen_ai.usage.input_tokens': record.promptTokens,
      'gen_ai.usage.output_tokens': record.completionTokens,
      'sopworks.repairs': record.repairs,
      'sopworks.retries': record.retries,
      'sopworks.usage.counted': record.counted,
      ...(model.server ? { 'server.address': new URL(model.server).hostname, 'server.port': Number(new URL(model.server).port) || 443 } : {}),
      ...(record.costUsd !== null ? { 'sopworks.cost_usd': record.costUsd } : {}),
    });
    if (this.captureContent && event.text) {
      span.setAttributes({
        'gen_ai.input.messages': JSON.stringify(event.text.prompt.map((m) => ({ role: m.role, parts: [{ type: 'text', content: m.content }] }))),
        'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: event.text.reply }] }]),
      });
    }
    if (!record.ok) span.setStatus({ code: SpanStatusCode.ERROR, message: 'the reply stayed invalid' });
    span.end();
  }

  /** The context a role's spans start in: under its agent span, itself under the run. */
  private under(role: string) {
    let span = this.roles.get(role);
    if (!span) {
      const parent = this.run ? trace.setSpan(context.active(), this.run) : context.active();
      span = this.tracer.startSpan(`invoke_agent ${role}`, { attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': role } }, parent);
      this.roles.set(role, span);
    }
    return trace.setSpan(context.active(), span);
  }

  async finish(result: RunOutcomeForTrace | { error: unknown }): Promise<void> {
    for (const span of [...this.calls.values(), ...this.tests.values()]) span.end();
    for (const span of this.roles.values()) span.end();
    if (this.run) {
      if ('error' in result) {
        this.run.recordException(result.error as Error);
        this.run.setStatus({ code: SpanStatusCode.ERROR, message: (result.error as Error)?.message ?? String(result.error) });
      } else {
        const total = result.usage.total();
        this.run.setAttributes({
          'sopworks.outcome': result.outcome,
          'sopworks.reason': result.reason.slice(0, 1000),
          'sopworks.calls': total.calls,
          'gen_ai.usage.input_tokens': total.promptTokens,
          'gen_ai.usage.output_tokens': total.completionTokens,
          ...(total.costUsd !== null ? { 'sopworks.cost_usd': total.costUsd } : {}),
        });
        if (result.outcome === 'failed') this.run.setStatus({ code: SpanStatusCode.ERROR, message: result.reason.slice(0, 200) });
      }
      this.run.end();
    }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.provider.shutdown().catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, FLUSH_LIMIT_MS * 2)))]);
    clearTimeout(timer);
  }
}
