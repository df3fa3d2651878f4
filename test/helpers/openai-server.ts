/**
 * A local OpenAI-compatible HTTP server for tests: answers /v1/chat/completions from a queue of
 * replies (or a function of the request), /v1/models with a model list, and records every request.
 * Binds to 127.0.0.1 on a free port.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeReply {
  /** HTTP status; 200 by default. */
  status?: number;
  content?: string;
  usage?: { prompt_tokens: number; completion_tokens: number } | null;
  headers?: Record<string, string>;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export interface FakeOpenAI {
  url: string;
  requests: RecordedRequest[];
  chatRequests(): RecordedRequest[];
  close(): Promise<void>;
}

export async function startFakeOpenAI(options: {
  replies: FakeReply[] | ((body: any) => FakeReply);
  apiKey?: string;
  modelsStatus?: number;
}): Promise<FakeOpenAI> {
  const requests: RecordedRequest[] = [];
  const queue = Array.isArray(options.replies) ? [...options.replies] : null;
  const server = http.createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = raw ? JSON.parse(raw) : null;
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push({ method: req.method ?? '', path, headers: req.headers, body });
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(payload));
    };
    if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      return send(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } });
    }
    if (path.endsWith('/models')) {
      return send(options.modelsStatus ?? 200, { object: 'list', data: [{ id: 'test-model', object: 'model' }] });
    }
    if (!path.endsWith('/chat/completions')) return send(404, { error: { message: `no route ${path}` } });
    const reply = queue ? queue.shift() : (options.replies as (body: any) => FakeReply)(body);
    if (!reply) return send(500, { error: { message: 'the fake server has no reply left' } });
    if (reply.status && reply.status !== 200) {
      return send(reply.status, { error: { message: `injected ${reply.status}`, type: 'server_error' } }, reply.headers);
    }
    send(200, {
      id: `chatcmpl-${requests.length}`,
      object: 'chat.completion',
      created: 0,
      model: body?.model ?? 'test-model',
      choices: [{ index: 0, message: { role: 'assistant', content: reply.content ?? '' }, finish_reason: 'stop' }],
      ...(reply.usage === null
        ? {}
        : { usage: { ...(reply.usage ?? { prompt_tokens: 10, completion_tokens: 5 }), total_tokens: (reply.usage?.prompt_tokens ?? 10) + (reply.usage?.completion_tokens ?? 5) } }),
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    chatRequests: () => requests.filter((r) => r.path.endsWith('/chat/completions')),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
