/**
 * One request the proxy lets through, made again upstream: only a read (GET, HEAD) of a path an
 * installer needs (registry-paths.ts), with the allowed headers (request-headers.ts) and the user's
 * credential for that URL — nothing else reaches the registry. The answer is bounded in size (by what
 * it is: metadata, or a file) and in time, headers to last byte; over either bound it is cut off and
 * refused. A pip page is read whole (within its bound) for the files it lists, which alone are let
 * through afterwards (listed-files.ts).
 */
import type http from 'node:http';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { request as undiciRequest } from 'undici';
import { describeOrigin, type Origin } from './allow-list.ts';
import { authorizationFor, type Credential } from './credentials.ts';
import type { EgressBounds } from './egress-bounds.ts';
import { listedFiles } from './listed-files.ts';
import { type EgressRegistry, judgePath } from './registry-paths.ts';
import { forwardedHeaders } from './request-headers.ts';
import type { Upstream } from './upstream.ts';

export interface EgressRequest {
  /** `CONNECT host:port`, or the method and URL of a plain request. */
  request: string;
  allowed: boolean;
  /** The upstream status, or why it was refused or failed. */
  result: string;
}

export interface RelayContext {
  registries: readonly EgressRegistry[];
  credentials: readonly Credential[];
  bounds: EgressBounds;
  upstreams: Upstream;
  /** Files the pages served so far listed (listedKey). */
  listed: Set<string>;
  record(entry: EgressRequest): void;
}

const READ_METHODS = new Set(['GET', 'HEAD']);
/** Answer headers that belong to one hop. */
const HOP_HEADERS = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** Refuses a request: 403 to the sandbox, and a refused entry (a `network` violation of the install). */
export function refuse(ctx: Pick<RelayContext, 'record'>, res: http.ServerResponse, shown: string, why: string): void {
  ctx.record({ request: shown, allowed: false, result: why });
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(403, { 'content-type': 'text/plain', connection: 'close' });
  res.end(`sopworks egress proxy: refused: ${why}\n`);
}

/** Makes an allowed request again upstream, with the user's settings, and sends the answer back within its bounds. */
export async function relay(ctx: RelayContext, origin: Origin, req: http.IncomingMessage, res: http.ServerResponse, shown: string): Promise<void> {
  const method = req.method ?? '';
  if (!READ_METHODS.has(method)) return refuse(ctx, res, shown, `${method} is not let through: an install only reads from the registry`);
  const raw = req.url ?? '';
  if (!raw.startsWith('/') || raw.startsWith('//')) return refuse(ctx, res, shown, 'not a path on the registry');
  // Dot segments resolved here: what is judged is what is sent.
  const target = new URL(raw, describeOrigin(origin));
  const verdict = judgePath(ctx.registries, target, ctx.listed);
  if (!verdict.allowed) return refuse(ctx, res, shown, verdict.why);
  const headers = forwardedHeaders(req.headers, { identity: verdict.what === 'page' });
  // Another name of the registry (a lockfile's): fetched from the registry itself, with its credential.
  const fetched = verdict.upstream ?? target.href;
  const authorization = authorizationFor(fetched, ctx.credentials);
  if (authorization) headers.authorization = authorization;
  const limit = verdict.what === 'file' ? ctx.bounds.fileBytes : ctx.bounds.metadataBytes;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), ctx.bounds.responseMs);
  try {
    const upstream = await undiciRequest(fetched, {
      method: method as 'GET' | 'HEAD',
      headers,
      dispatcher: ctx.upstreams.dispatcherFor(fetched),
      signal: abort.signal,
    });
    // An answer cut off here ends its body with an error nobody else listens for.
    upstream.body.on('error', () => undefined);
    const declared = Number(upstream.headers['content-length'] ?? 0);
    if (declared > limit) {
      upstream.body.destroy();
      return refuse(ctx, res, shown, `the answer is ${declared} bytes, over the bound of ${limit}`);
    }
    const out: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(upstream.headers)) if (value !== undefined && !HOP_HEADERS.has(name)) out[name] = value;
    if (verdict.what === 'page') {
      const body = await readWhole(upstream.body, limit);
      if (body === null) return refuse(ctx, res, shown, `the answer is over the bound of ${limit} bytes`);
      for (const key of listedFiles(decoded(body, out['content-encoding'], limit), target, String(out['content-type'] ?? ''))) ctx.listed.add(key);
      ctx.record({ request: shown, allowed: true, result: String(upstream.statusCode) });
      res.writeHead(upstream.statusCode, out).end(body);
      return;
    }
    ctx.record({ request: shown, allowed: true, result: verdict.upstream ? `${upstream.statusCode} (from ${verdict.upstream})` : String(upstream.statusCode) });
    res.writeHead(upstream.statusCode, out);
    await pipeline(upstream.body, new ByteBound(limit), res);
  } catch (error) {
    if (abort.signal.aborted) return refuse(ctx, res, shown, `the answer took longer than ${Math.round(ctx.bounds.responseMs / 1000)} s`);
    if (error instanceof OverBound) return refuse(ctx, res, shown, `the answer is over the bound of ${limit} bytes`);
    const reason = describeUpstreamError(error);
    ctx.record({ request: shown, allowed: true, result: `failed: ${reason}` });
    if (res.headersSent) return void res.destroy();
    res.writeHead(502, { 'content-type': 'text/plain' });
    res.end(`sopworks egress proxy: could not reach ${describeOrigin(origin)}: ${reason}\n`);
  } finally {
    clearTimeout(timer);
  }
}

class OverBound extends Error {}

/** Passes bytes through until there are more than `limit`, then fails. */
class ByteBound extends Transform {
  private seen = 0;
  constructor(private readonly limit: number) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.limit) done(new OverBound());
    else done(null, chunk);
  }
}

/** The whole body, or null when it is over `limit` bytes. */
async function readWhole(body: AsyncIterable<Buffer>, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** A page's text, whatever compression the registry chose after all ('' when it cannot be read). */
function decoded(body: Buffer, encoding: string | string[] | undefined, limit: number): string {
  const options = { maxOutputLength: limit };
  try {
    switch (String(encoding ?? 'identity').toLowerCase()) {
      case 'gzip':
        return zlib.gunzipSync(body, options).toString('utf8');
      case 'deflate':
        return zlib.inflateSync(body, options).toString('utf8');
      case 'br':
        return zlib.brotliDecompressSync(body, options).toString('utf8');
      case 'identity':
        return body.toString('utf8');
      default:
        return '';
    }
  } catch {
    return '';
  }
}

/** An upstream failure in a line: the code and message of the innermost cause. */
function describeUpstreamError(error: unknown): string {
  let current: unknown = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  const err = current as NodeJS.ErrnoException;
  return [err.code, err.message].filter(Boolean).join(' ') || String(error);
}
