/**
 * The benchmark's model endpoint: a local HTTP server that stands for a rate-limited model API. Each
 * request is held for a simulated latency and answered 200 — or 429 with a Retry-After when it would be
 * more than `rpm` requests in the last 60 seconds (a sliding minute, as strict as an endpoint can be).
 * It records every request it accepted and refused.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface RpmEndpoint {
  url: string;
  /** When each accepted request arrived (ms since the epoch). */
  accepted: number[];
  refused: number;
  setLimit(rpm: number | null): void;
  reset(): void;
  close(): Promise<void>;
}

export async function startRpmEndpoint(latencyMs: number): Promise<RpmEndpoint> {
  let rpm: number | null = null;
  const accepted: number[] = [];
  const state = { refused: 0 };
  const server = http.createServer(async (req, res) => {
    for await (const _ of req);
    const now = Date.now();
    if (rpm !== null) {
      const inLastMinute = accepted.filter((t) => t > now - 60_000);
      if (inLastMinute.length >= rpm) {
        state.refused += 1;
        const retryMs = inLastMinute[inLastMinute.length - rpm]! + 60_000 - now;
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after-ms': String(Math.max(1, retryMs)) });
        res.end(JSON.stringify({ error: { message: 'Rate limit reached for requests', type: 'requests' } }));
        return;
      }
    }
    accepted.push(now);
    await sleep(latencyMs);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/chat/completions`,
    accepted,
    get refused() {
      return state.refused;
    },
    setLimit: (limit) => (rpm = limit),
    reset: () => {
      accepted.length = 0;
      state.refused = 0;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
