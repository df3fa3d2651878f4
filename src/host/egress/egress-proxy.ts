/**
 * The egress proxy of one install step: the sandbox's only way out. It listens on a Unix socket in a
 * private folder (bound into the sandbox, which has no network of its own) and speaks HTTP proxy:
 *
 * - `GET http://host:port/…` (absolute form) to a registry configured as http;
 * - `CONNECT host:port` to one configured as https: the proxy answers TLS itself with a certificate of
 *   its one-step CA (egress-ca.ts), reads the request, and makes it again upstream.
 *
 * Anything else — another host, another port, another scheme, a request that is not a proxy request,
 * a method other than GET and HEAD (an install only reads; a write would carry the user's token) —
 * gets 403 and is logged. Upstream requests carry the user's CA, proxy and credentials (upstream.ts);
 * whatever the sandbox sent as credentials or proxy headers is dropped.
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import { request as undiciRequest } from 'undici';
import { allowed, authorityOf, describeOrigin, normalHost, type Origin } from './allow-list.ts';
import { createEgressCa, type EgressCa } from './egress-ca.ts';
import { authorizationFor, type Upstream, upstream as upstreamOf, type UpstreamSettings } from './upstream.ts';

export interface EgressRequest {
  /** `CONNECT host:port`, or the method and URL of a plain request. */
  request: string;
  allowed: boolean;
  /** The upstream status, or why it was refused or failed. */
  result: string;
}

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
  allow: readonly Origin[];
  upstream: UpstreamSettings;
}

/** Headers that belong to one hop, or carry what the sandbox must not choose. */
const DROPPED = new Set([
  'connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'authorization',
  'cookie',
]);
const MAX_LOGGED = 2000;
const READ_METHODS = new Set(['GET', 'HEAD']);

/** What the handlers of one proxy share. */
interface ProxyContext {
  options: EgressProxyOptions;
  upstreams: Upstream;
  ca: EgressCa;
  record(entry: EgressRequest): void;
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
    options,
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
      if (!origin) return refuse(res, 'no target');
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
  ctx.inner.on('clientError', (_error, socket) => socket.destroy());

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
  if (!origin || !allowed(ctx.options.allow, origin)) {
    ctx.record({ request: shown, allowed: false, result: origin ? 'not a configured registry' : 'not a proxy request' });
    refuse(res, origin ? `${describeOrigin(origin)} is not a configured registry` : 'not a proxy request');
    return;
  }
  req.url = pathAndQuery;
  void relay(ctx, origin, req, res, shown);
}

/** `CONNECT host:port`: to a configured https registry, answered with TLS by the proxy itself. */
function answerConnect(ctx: ProxyContext, req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
  const shown = `CONNECT ${req.url}`;
  const origin = authorityOf(req.url ?? '', 'https');
  socket.on('error', () => socket.destroy());
  if (!origin || !allowed(ctx.options.allow, origin)) {
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

/** Makes an allowed request again upstream, with the user's settings, and streams the answer back. */
async function relay(ctx: ProxyContext, origin: Origin, req: http.IncomingMessage, res: http.ServerResponse, shown: string): Promise<void> {
  // An install only reads; with the user's credentials added, a write would publish as them.
  if (!READ_METHODS.has(req.method ?? '')) {
    ctx.record({ request: shown, allowed: false, result: 'only GET and HEAD are let through' });
    refuse(res, `${req.method} is not let through: an install only reads from the registry`);
    return;
  }
  const url = `${describeOrigin(origin)}${req.url?.startsWith('/') ? req.url : '/'}`;
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !DROPPED.has(name)) headers[name] = value;
  const authorization = authorizationFor(url, ctx.options.upstream.credentials);
  if (authorization) headers.authorization = authorization;
  try {
    const upstream = await undiciRequest(url, { method: req.method as 'GET' | 'HEAD', headers, dispatcher: ctx.upstreams.dispatcherFor(url) });
    const out: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(upstream.headers)) if (value !== undefined && !DROPPED.has(name)) out[name] = value;
    res.writeHead(upstream.statusCode, out);
    ctx.record({ request: shown, allowed: true, result: String(upstream.statusCode) });
    upstream.body.on('error', () => res.destroy());
    upstream.body.pipe(res);
  } catch (error) {
    const reason = describeUpstreamError(error);
    ctx.record({ request: shown, allowed: true, result: `failed: ${reason}` });
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end(`sopworks egress proxy: could not reach ${describeOrigin(origin)}: ${reason}\n`);
  }
}

function refuse(res: http.ServerResponse, why: string): void {
  res.writeHead(403, { 'content-type': 'text/plain', connection: 'close' });
  res.end(`sopworks egress proxy: refused: ${why}\n`);
}

/** An upstream failure in a line: the code and message of the innermost cause. */
function describeUpstreamError(error: unknown): string {
  let current: unknown = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  const err = current as NodeJS.ErrnoException;
  return [err.code, err.message].filter(Boolean).join(' ') || String(error);
}
