/**
 * A real HTTP proxy on loopback for the tests, as undici's proxy agents use one: every request arrives
 * as a CONNECT tunnel (HTTP too), which this proxy logs and pipes to its target. `hosts` maps names only
 * the proxy knows (say `model-server.test`) to loopback, so a request that reaches the server at such a
 * name can only have come through the proxy. `refuse` answers every CONNECT with 407, before connecting
 * anywhere: a tunnel to a public host goes no further than here.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';

export interface LoggingProxy {
  url: string;
  /** `host:port` of each CONNECT, in order. */
  log: string[];
  close(): Promise<void>;
}

export async function startLoggingProxy(options: { hosts?: Record<string, string>; refuse?: boolean } = {}): Promise<LoggingProxy> {
  const log: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((_req, res) => {
    res.writeHead(405);
    res.end('this proxy tunnels only (CONNECT)');
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const target = req.url ?? '';
    log.push(target);
    sockets.add(client);
    if (options.refuse) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\n\r\n');
      return;
    }
    const [host, port] = [target.slice(0, target.lastIndexOf(':')), Number(target.slice(target.lastIndexOf(':') + 1))];
    const upstream = net.connect(port, options.hosts?.[host] ?? host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    const end = () => {
      upstream.destroy();
      client.destroy();
    };
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
    upstream.on('close', end);
    client.on('error', end);
    client.on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
