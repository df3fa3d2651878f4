/**
 * OpenTelemetry traces: the demo run through the real CLI exports its spans over OTLP/HTTP to a local
 * receiver the test starts; the spans' tree and attributes follow the GenAI conventions. Prompt text is
 * sent only when asked for; an endpoint that does not answer is warned about once, never failing the run.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEMO, ROOT } from '../helpers/paths.ts';
import { runCli } from '../helpers/run-cli.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

type AnyValue = { stringValue?: string; intValue?: number | string; doubleValue?: number; boolValue?: boolean; arrayValue?: { values: AnyValue[] } };
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: { key: string; value: AnyValue }[];
  status?: { code?: number };
  events?: { name: string }[];
}
interface ReceivedSpan {
  id: string;
  parent: string | null;
  traceId: string;
  name: string;
  attrs: Record<string, unknown>;
  /** OTLP's status code: 2 is ERROR. */
  status: number;
}

const decodeValue = (v: AnyValue): unknown =>
  v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : undefined) ?? v.doubleValue ?? v.boolValue ?? v.arrayValue?.values.map(decodeValue);

async function receiver(): Promise<{ url: string; spans: ReceivedSpan[]; resources: Record<string, unknown>[]; close: () => Promise<void> }> {
  const spans: ReceivedSpan[] = [];
  const resources: Record<string, unknown>[] = [];
  const server = http.createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    if (req.url === '/v1/traces' && req.method === 'POST') {
      const body = JSON.parse(raw) as { resourceSpans: { resource: { attributes: OtlpSpan['attributes'] }; scopeSpans: { spans: OtlpSpan[] }[] }[] };
      for (const rs of body.resourceSpans) {
        resources.push(Object.fromEntries(rs.resource.attributes.map((a) => [a.key, decodeValue(a.value)])));
        for (const ss of rs.scopeSpans) {
          for (const s of ss.spans) {
            spans.push({
              id: s.spanId,
              parent: s.parentSpanId || null,
              traceId: s.traceId,
              name: s.name,
              attrs: Object.fromEntries(s.attributes.map((a) => [a.key, decodeValue(a.value)])),
              status: s.status?.code ?? 0,
            });
          }
        }
      }
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, spans, resources, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('OpenTelemetry traces of a run (OTLP/HTTP to a local receiver)', function () {
  this.timeout(120_000);
  after(removeTempDirs);

  const demo = async (env: Record<string, string>) => {
    const out = await tempDir();
    return runCli(['run', '--llm', `scripted:${DEMO}`, '--out', out, '--name', 'wordfreq'], {
      cwd: ROOT,
      env: { SOPWORKS_PRICE_INPUT: '1', SOPWORKS_PRICE_OUTPUT: '2', ...env },
    });
  };

  it('exports the run, each role, each model call, the test rounds and the commits as one tree', async () => {
    const otlp = await receiver();
    try {
      const cli = await demo({ OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url });
      assert.equal(cli.code, 0, cli.stdout + cli.stderr);
      assert.doesNotMatch(cli.stderr, /traces could not be sent/);
      assert.equal(otlp.resources[0]?.['service.name'], 'sopworks');

      const roots = otlp.spans.filter((s) => s.parent === null);
      assert.equal(roots.length, 1, `one root: ${roots.map((r) => r.name).join(', ')}`);
      const run = roots[0]!;
      assert.equal(run.name, 'sopworks run wordfreq');
      assert.equal(run.attrs['sopworks.outcome'], 'done');
      assert.equal(typeof run.attrs['sopworks.cost_usd'], 'number');
      assert.ok((run.attrs['sopworks.cost_usd'] as number) > 0);
      assert.ok(
        otlp.spans.every((s) => s.traceId === run.traceId),
        "every span is in the run's trace",
      );

      const agents = otlp.spans.filter((s) => s.parent === run.id);
      assert.deepEqual(agents.map((a) => a.attrs['gen_ai.agent.name']).sort(), ['architect', 'engineer', 'product-manager', 'qa']);
      assert.ok(agents.every((a) => a.attrs['gen_ai.operation.name'] === 'invoke_agent'));

      const byId = new Map(otlp.spans.map((s) => [s.id, s]));
      const chats = otlp.spans.filter((s) => s.attrs['gen_ai.operation.name'] === 'chat');
      assert.ok(chats.length >= 10, `${chats.length} model calls`);
      for (const chat of chats) {
        const agent = byId.get(chat.parent!)!;
        assert.equal(agent.attrs['gen_ai.operation.name'], 'invoke_agent', 'a call sits under its role');
        assert.equal(chat.attrs['gen_ai.agent.name'], agent.attrs['gen_ai.agent.name']);
        assert.equal(chat.attrs['gen_ai.request.model'], 'scripted');
        assert.equal(typeof chat.attrs['gen_ai.usage.input_tokens'], 'number');
        assert.equal(typeof chat.attrs['gen_ai.usage.output_tokens'], 'number');
        assert.equal(chat.attrs['gen_ai.input.messages'], undefined, 'no prompt text unless asked for');
      }
      const sum = (key: string) => chats.reduce((n, c) => n + (c.attrs[key] as number), 0);
      assert.equal(run.attrs['gen_ai.usage.input_tokens'], sum('gen_ai.usage.input_tokens'));

      const tests = otlp.spans.filter((s) => s.name === 'sandbox tests');
      assert.ok(tests.length >= 1 && tests.every((t) => byId.get(t.parent!)?.attrs['gen_ai.agent.name'] === 'qa'));
      // The demo's first round fails with "(4 passed, 4 failed)" in its line: the verdict is the round's, not a word of its text.
      const verdicts = tests.map((t) => ({ result: t.attrs['sopworks.tests.result'], passed: t.attrs['sopworks.tests.passed'], error: t.status === 2 }));
      assert.deepEqual(verdicts, [
        { result: 'round 1: failed (4 passed, 4 failed)', passed: false, error: true },
        { result: 'round 2: passed (8 passed, 0 failed)', passed: true, error: false },
      ]);
      const commits = otlp.spans.filter((s) => s.name === 'git commit');
      assert.ok(commits.length >= 5, `${commits.length} commits`);
    } finally {
      await otlp.close();
    }
  });

  it('sends prompt and reply text only when asked for', async () => {
    const otlp = await receiver();
    try {
      const cli = await demo({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${otlp.url}/v1/traces`, OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true' });
      assert.equal(cli.code, 0, cli.stderr);
      const prd = otlp.spans.find((s) => s.attrs['sopworks.action'] === 'write_prd')!;
      const input = JSON.parse(prd.attrs['gen_ai.input.messages'] as string) as { role: string; parts: { content: string }[] }[];
      assert.deepEqual(
        input.map((m) => m.role),
        ['system', 'user'],
      );
      assert.match(input[1]!.parts[0]!.content, /word frequencies/);
      assert.ok((prd.attrs['gen_ai.output.messages'] as string).length > 50);
    } finally {
      await otlp.close();
    }
  });

  it('warns once when the endpoint does not answer, and the run goes on', async () => {
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const cli = await demo({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` });
    assert.equal(cli.code, 0, cli.stderr);
    const warnings = cli.stderr.split('\n').filter((l) => /traces could not be sent/.test(l));
    assert.equal(warnings.length, 1, cli.stderr);
    assert.match(warnings[0]!, new RegExp(`warning: traces could not be sent to http://127\\.0\\.0\\.1:${port}/v1/traces .*the run goes on without them`));
  });
});
