/**
 * Server-sent event streams: a `change` event at once (a page loads on it, so nothing that happened
 * between its load and the stream is missed), and again whenever what it watches changes; a comment
 * now and then keeps an idle stream open through proxies and browsers.
 */
import type http from 'node:http';
import { SECURITY_HEADERS } from './http-kit.ts';
import type { Watcher } from './run-watcher.ts';

/** How often an idle event stream says it is alive. */
const HEARTBEAT_MS = 15_000;

export class EventStreams {
  private readonly open = new Set<http.ServerResponse>();

  /** Answers with a stream that sends `change` whenever `watch` calls its listener. */
  serve(res: http.ServerResponse, watch: (onChange: () => void) => Watcher): void {
    res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
    if (res.req.method === 'HEAD') return void res.end();
    this.open.add(res);
    let version = 0;
    const send = () => res.write(`event: change\ndata: ${JSON.stringify({ version: ++version })}\n\n`);
    res.write('retry: 2000\n\n');
    send();
    const watcher = watch(send);
    const heartbeat = setInterval(() => res.write(': alive\n\n'), HEARTBEAT_MS);
    res.on('close', () => {
      watcher.close();
      clearInterval(heartbeat);
      this.open.delete(res);
    });
  }

  /** Ends every open stream (the server is closing). */
  endAll(): void {
    for (const res of this.open) res.end();
  }
}
