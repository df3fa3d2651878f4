/**
 * A local OpenAI-compatible HTTP server for tests: answers /v1/chat/completions from a queue of
 * replies (or a function of the request), /v1/models with a model list, and records every request.
 * Binds to 127.0.0.1 on a free port.
 *
 * A reply can carry a fault, as real endpoints produce them: an error status (429 with or without
 * Retry-After, 5xx, a 400 that rejects `response_format`), an answer slower than the client's timeout,
 * a connection reset after the headers, or a reply cut off at the output limit (`finish_reason: length`)
 * — or a 200 whose body is not a chat completion at all (`body`: an HTML page, an event stream…).
 *
 * Like real servers, it serves its API under /v1 only: anything else is a plain-text 404. The start-up
 * check's small chat request (marked by PREFLIGHT_HEADER) is answered by `startUpCheck` (default: a
 * normal completion) without taking a reply from the queue, and is left out of `chatRequests()`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PREFLIGHT_HEADER } from '../../src/capabilities/model/index.ts';

export interface FakeReply {
  /** HTTP status; 200 by default. */
  status?: number;
  /** The error body's message and code for a status other than 200. */
  error?: { message: string; code?: string; type?: string };
  content?: string;
  /**
   * `prompt_tokens_details.cached_tokens`: the prompt tokens the server's prefix cache served (OpenAI, vLLM, llama.cpp);
   * `prompt_cache_hit_tokens`: the same as DeepSeek says it.
   */
  usage?: { prompt_tokens: number; completion_tokens: number; prompt_tokens_details?: { cached_tokens: number }; prompt_cache_hit_tokens?: number } | null;
  headers?: Record<string, string>;
  /** `reasoning_content` of the message, as reasoning models on vLLM, LM Studio or llama.cpp send it. */
  reasoningContent?: string;
  /** `refusal` of the message, as OpenAI sends it under structured output instead of content (left null). */
  refusal?: string;
  /** `finish_reason` of the choice; "stop" by default ("length": the reply was cut at the output limit). */
  finishReason?: string;
  /** Holds the answer back this long — or until the client gives up, whichever comes first. */
  delayMs?: number;
  /** Sends the headers and the start of the body, then destroys the socket (a connection reset mid-response). */
  resetMidResponse?: boolean;
  /** Sent as it is, with `status` (200 by default) and `contentType`, instead of a chat completion. */
  body?: string;
  contentType?: string;
  /** Never answers: holds the request until the client gives up. */
  silent?: boolean;
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
  /** The run's chat requests (the start-up check's left out). */
  chatRequests(): RecordedRequest[];
  /** The start-up check's chat requests. */
  startUpChecks(): RecordedRequest[];
  close(): Promise<void>;
}

export async function startFakeOpenAI(options: {
  replies: FakeReply[] | ((body: any) => FakeReply);
  apiKey?: string;
  modelsStatus?: number;
  /** More fields of the model's entry in the model list (`max_model_len`, as vLLM reports its context window). */
  modelEntry?: Record<string, unknown>;
  /** The answer to the start-up check's chat request; default: a normal completion. */
  startUpCheck?: FakeReply;
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
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(payload));
    };
    if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      return send(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } });
    }
    if (!path.startsWith('/v1/')) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return res.end('404 page not found');
    }
    if (path.endsWith('/models')) {
      return send(options.modelsStatus ?? 200, { object: 'list', data: [{ id: 'test-model', object: 'model', ...options.modelEntry }] });
    }
    if (!path.endsWith('/chat/completions')) return send(404, { error: { message: `no route ${path}` } });
    const checking = req.headers[PREFLIGHT_HEADER] !== undefined;
    const reply = checking ? (options.startUpCheck ?? { content: 'OK' }) : queue ? queue.shift() : (options.replies as (body: any) => FakeReply)(body);
    if (!reply) return send(500, { error: { message: 'the fake server has no reply left' } });
    if (reply.silent) await holdBack(60 * 60_000, res);
    if (reply.delayMs) await holdBack(reply.delayMs, res);
    if (res.destroyed) return;
    if (reply.body !== undefined) {
      res.writeHead(reply.status ?? 200, { 'content-type': reply.contentType ?? 'application/json', ...reply.headers });
      return res.end(reply.body);
    }
    if (reply.status && reply.status !== 200) {
      const error = reply.error ?? { message: `injected ${reply.status}`, type: 'server_error' };
      return send(reply.status, { error: { type: 'server_error', ...error } }, reply.headers);
    }
    const payload = JSON.stringify({
      id: `chatcmpl-${requests.length}`,
      object: 'chat.completion',
      created: 0,
      model: body?.model ?? 'test-model',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: reply.refusal === undefined ? (reply.content ?? '') : null,
            ...(reply.refusal === undefined ? {} : { refusal: reply.refusal }),
            ...(reply.reasoningContent === undefined ? {} : { reasoning_content: reply.reasoningContent }),
          },
          finish_reason: reply.finishReason ?? 'stop',
        },
      ],
      ...(reply.usage === null
        ? {}
        : {
            usage: {
              ...(reply.usage ?? { prompt_tokens: 10, completion_tokens: 5 }),
              total_tokens: (reply.usage?.prompt_tokens ?? 10) + (reply.usage?.completion_tokens ?? 5),
            },
          }),
    });
    if (res.destroyed) return;
    if (reply.resetMidResponse) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) });
      res.write(payload.slice(0, Math.floor(payload.length / 2)), () => res.socket?.destroy());
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', ...reply.headers });
    res.end(payload);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    chatRequests: () => requests.filter((r) => r.path.endsWith('/chat/completions') && r.headers[PREFLIGHT_HEADER] === undefined),
    startUpChecks: () => requests.filter((r) => r.headers[PREFLIGHT_HEADER] !== undefined),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // Held-back answers and kept-alive sockets would otherwise keep close() waiting.
        server.closeAllConnections();
      }),
  };
}

/** Waits `ms`, or until the client closes the connection (it timed out and gave up). */
function holdBack(ms: number, res: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    res.once('close', done);
    function done() {
      clearTimeout(timer);
      res.off('close', done);
      resolve();
    }
  });
}
