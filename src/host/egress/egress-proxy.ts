/**
 * The egress proxy of one install step: the sandbox's only way out. It listens on a Unix socket in a
 * private folder (bound into the sandbox, which has no network of its own) and speaks HTTP proxy:
 *
 * - `GET http://host:port/…` (absolute form) to a registry configured as http;
 * - `CONNECT host:port` to one configured as https: the proxy answers TLS itself with a certificate of
 *   its one-step CA (egress-ca.ts), reads the request, and makes it again upstream.
 *
 * Anything else — another host, another port, another scheme, a request that is not a proxy request,
 * a method other than GET and HEAD (an install only reads; a write would carry the user's token), a
 * path that is not a package's metadata or file (registry-paths.ts), an answer over its size or time
 * bound — gets 403 and is logged. Upstream requests carry the user's CA, proxy and credentials
 * (upstream.ts) and only the allowed headers (request-headers.ts): relay.ts.
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import { allowed, authorityOf, describeOrigin, normalHost, type Origin, originOf } from './allow-list.ts';
import type { UpstreamSettings } from './credentials.ts';
import { DEFAULT_EGRESS_BOUNDS, type EgressBounds } from './egress-bounds.ts';
import { createEgressCa, type EgressCa } from './egress-ca.ts';
import type { EgressRegistry } from './registry-paths.ts';
import { type EgressRequest, type RelayContext, refuse, relay } from './relay.ts';
import { upstream as upstreamOf } from './upstream.ts';

export type { EgressRequest } from './relay.ts';

export interface EgressProxy {
  /** The Unix socket on the host. */
  socketPath: string;
  /** The one-step CA's certificate on the host (PEM), for the sandbox to trust. */
  caFile: string;
  /** Every request so far, in order. */
  requests(): EgressRequest[];
  stop(): Promise<void>;
}

export interface EgressProxyOptions {
  /** The registries of this install, each with what an installer may ask of it. */
  registries: readonly EgressRegistry[];
  upstream: UpstreamSettings;
  /** Default: DEFAULT_EGRESS_BOUNDS. */
  bounds?: EgressBounds;
}

const MAX_LOGGED = 2000;

/** What the handlers of one proxy share. */
interface ProxyContext extends RelayContext {
  /** The registries' origins: the only ones a request may name. */
  allow: Origin[];
  ca: EgressCa;
  /** The origin each TLS connection inside a CONNECT was made for. */
  targets: WeakMap<object, Origin>;
  sockets: Set<Duplex>;
  /** Reads the requests inside a CONNECT. */
  inner: http.Server;
}

export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sopworks-egress-'));
  await fs.chmod(dir, 0o700);
  const socketPath = path.join(dir, 'egress.sock');
  const caFile = path.join(dir, 'egress-ca.pem');
  const ca = await createEgressCa();
  await fs.writeFile(caFile, ca.certPem, { mode: 0o644 });
  const log: EgressRequest[] = [];
  const ctx: ProxyContext = {
    registries: options.registries,
    credentials: options.upstream.credentials,
    bounds: options.bounds ?? DEFAULT_EGRESS_BOUNDS,
    listed: new Set(),
    allow: options.registries.map((registry) => originOf(registry.url)).filter((origin): origin is Origin => origin !== null),
    upstreams: upstreamOf(options.upstream),
    ca,
    record: (entry) => {
      if (log.length < MAX_LOGGED) log.push(entry);
    },
    targets: new WeakMap(),
    sockets: new Set(),
    // Requests that arrive inside a CONNECT: their target is the CONNECT's, whatever their Host says.
    inner: http.createServer((req, res) => {
      const origin = ctx.targets.get(req.socket);
      if (!origin) return refuse(ctx, res, `${req.method} ${req.url}`, 'no target');
      void relay(ctx, origin, req, res, `${req.method} ${describeOrigin(origin)}${req.url}`);
    }),
  };
  const front = http.createServer((req, res) => answerPlain(ctx, req, res));
  front.on('connect', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => answerConnect(ctx, req, socket, head));
  front.on('connection', (socket: net.Socket) => {
    ctx.sockets.add(socket);
    socket.on('close', () => ctx.sockets.delete(socket));
  });
  front.on('clientError', (_error, socket) => socket.destroy());
  // What a tunnel carries that is no HTTP request at all is refused, and counted like any refusal.
  ctx.inner.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (error.code?.startsWith('HPE_')) ctx.record({ request: 'a request inside a CONNECT tunnel', allowed: false, result: 'not an HTTP request' });
    socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    front.once('error', reject);
    front.listen(socketPath, () => resolve());
  });
  // Only this user may connect; the sandbox gets the socket by a bind mount, not by permission.
  await fs.chmod(socketPath, 0o600);

  return {
    socketPath,
    caFile,
    requests: () => [...log],
    async stop() {
      for (const socket of ctx.sockets) socket.destroy();
      await new Promise<void>((resolve) => front.close(() => resolve()));
      ctx.inner.close();
      await ctx.upstreams.close();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

/** `GET http://host:port/…`: relayed when its origin is a configured registry. */
function answerPlain(ctx: ProxyContext, req: http.IncomingMessage, res: http.ServerResponse): void {
  const shown = `${req.method} ${req.url}`;
  let origin: Origin | null = null;
  let pathAndQuery = '/';
  try {
    const url = new URL(req.url ?? '');
    if (url.protocol === 'http:') {
      origin = { scheme: 'http', host: normalHost(url.hostname), port: url.port ? Number(url.port) : 80 };
      pathAndQuery = `${url.pathname}${url.search}`;
    }
  } catch {
    origin = null;
  }
  if (!origin || !allowed(ctx.allow, origin)) {
    refuse(ctx, res, shown, origin ? 'not a configured registry' : 'not a proxy request');
    return;
  }
  req.url = pathAndQuery;
  void relay(ctx, origin, req, res, shown);
}

/**
 * `CONNECT host:port`: to a configured https registry, answered with TLS by the proxy itself; to a
 * configured http registry (a client that tunnels everything, as Yarn 2+ does), a tunnel that must
 * speak plain HTTP — a TLS handshake in it is refused. Either way each request inside is judged as
 * any request to that registry.
 */
function answerConnect(ctx: ProxyContext, req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
  const shown = `CONNECT ${req.url}`;
  const plain = authorityOf(req.url ?? '', 'http');
  socket.on('error', () => socket.destroy());
  if (plain && allowed(ctx.allow, plain)) {
    plainTunnel(ctx, shown, plain, socket, head);
    return;
  }
  const origin = authorityOf(req.url ?? '', 'https');
  if (!origin || !allowed(ctx.allow, origin)) {
    ctx.record({ request: shown, allowed: false, result: origin ? 'not a configured registry' : 'not host:port' });
    socket.end('HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\nsopworks egress proxy: not a configured registry\n');
    return;
  }
  ctx.record({ request: shown, allowed: true, result: 'tunnel (TLS answered by the proxy)' });
  socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
  if (head.length > 0) socket.unshift(head);
  const site = ctx.ca.siteCertificate(origin.host);
  const secure = new tls.TLSSocket(socket as net.Socket, { isServer: true, key: site.key, cert: site.cert });
  secure.on('error', () => secure.destroy());
  ctx.targets.set(secure, origin);
  ctx.sockets.add(secure);
  secure.on('close', () => ctx.sockets.delete(secure));
  ctx.inner.emit('connection', secure);
}

/** A CONNECT to an http registry: its bytes read as plain HTTP requests to that registry; TLS is refused. */
function plainTunnel(ctx: ProxyContext, shown: string, origin: Origin, socket: Duplex, head: Buffer): void {
  socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
  const start = (first: Buffer) => {
    if (first[0] === 0x16) {
      ctx.record({ request: shown, allowed: false, result: 'TLS to an http registry' });
      socket.destroy();
      return;
    }
    ctx.record({ request: shown, allowed: true, result: 'tunnel (plain HTTP to an http registry)' });
    socket.unshift(first);
    ctx.targets.set(socket, origin);
    ctx.sockets.add(socket);
    socket.on('close', () => ctx.sockets.delete(socket));
    ctx.inner.emit('connection', socket);
  };
  if (head.length > 0) start(head);
  else socket.once('data', (chunk: Buffer) => start(chunk));
}
