/**
 * The local web viewer's HTTP server (node:http): the page and its assets, a JSON API over the runs in
 * one folder, and a server-sent event stream per run that says when the run has changed. It reads with
 * GET and HEAD; its one write — a decision on a run awaiting approval — is a POST guarded by a secret
 * token, Origin and Host (write-guard.ts). Bound to 127.0.0.1 by default, and on any address it answers
 * only requests addressed to the name it was started for (allowed-hosts.ts), so a web page elsewhere
 * cannot reach it through DNS rebinding. Bound to anything but the loopback, it serves nothing — runs,
 * prompts, pages — to a request without the token.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { describeError, SopworksError } from '../../../ground/errors.ts';
import { readCommitDiff, readCommits } from '../git-history.ts';
import { exchangeSummaries, runConversations } from '../run-page.ts';
import { pageDelta } from './page-delta.ts';
import { RunCache } from './run-cache.ts';
import { searchRun } from '../run-search.ts';
import { RunCatalog, RunNotFound } from './run-catalog.ts';
import { watchCatalog, watchRun, type Watcher } from './run-watcher.ts';
import { ASSETS, PAGE, type StaticAsset } from './static-assets.ts';
import { Refusal, writeGuard, type WriteGuard } from './write-guard.ts';
import { describeRequest, recordDecision } from '../../../capabilities/approvals/record-decision.ts';
import { runFiles } from '../read-run.ts';
import { allowedHostsFor, isLoopback } from './allowed-hosts.ts';

export interface ReviewServerOptions {
  /** A folder of runs, or one run. */
  dir: string;
  port: number;
  host: string;
  /** Told of every unexpected error while answering a request (the CLI prints them). */
  onError?: (error: unknown) => void;
  /** The secret that lets a page decide on runs; a random one when not given. */
  token?: string;
  /** More names the server answers to (`serve --allow-host`): a name or name:port a proxy or DNS gives it. */
  allowHosts?: readonly string[];
}

export interface ReviewServer {
  url: string;
  /** The URL with the token: opening it lets that browser decide on runs (print it, as Jupyter does). */
  tokenUrl: string;
  token: string;
  close(): Promise<void>;
}

/** A decision as the page sends it: approve, or reject saying what to change. */
const DecisionBody = z
  .object({
    approved: z.boolean(),
    feedback: z.string().trim().max(10_000).nullable().default(null),
  })
  .strict()
  .refine((d) => d.approved || (d.feedback !== null && d.feedback !== ''), {
    message: 'a rejection needs feedback: say what the role should change',
    path: ['feedback'],
  });
/** A decision is a few lines; anything longer is not one. */
const MAX_BODY = 16 * 1024;

async function readJsonBody(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new HttpError(413, `A decision is at most ${MAX_BODY} bytes.`);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(400, 'The body is not valid JSON.');
  }
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const SearchQuery = z.string().trim().min(2, 'give at least 2 characters to look for').max(200, 'look for at most 200 characters');
const PageFrom = z
  .string()
  .regex(/^\d{1,9}$/)
  .transform(Number);
const PageLimit = z
  .string()
  .regex(/^\d{1,4}$/)
  .transform(Number)
  .pipe(z.number().int().min(1).max(5000));
const ExchangeIndex = z
  .string()
  .regex(/^\d{1,9}$/)
  .transform(Number);
const CommitHash = z.string().regex(/^[0-9a-f]{40}$/, 'a commit is named by its full hash');
/** How often an idle event stream says it is alive, so proxies and browsers keep it open. */
const HEARTBEAT_MS = 15_000;

const SECURITY_HEADERS = {
  // Mermaid styles its SVG with inline <style>; scripts come only from this server.
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(text),
  });
  res.end(res.req.method === 'HEAD' ? undefined : text);
}

function sendAsset(res: http.ServerResponse, asset: StaticAsset): void {
  const stream = fs.createReadStream(asset.file);
  stream.on('open', () => {
    res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': asset.contentType, 'cache-control': asset.immutable ? 'public, max-age=86400' : 'no-cache' });
    if (res.req.method === 'HEAD') {
      stream.destroy();
      res.end();
    } else {
      stream.pipe(res);
    }
  });
  stream.on('error', (error) => {
    if (!res.headersSent)
      sendJson(res, 500, { error: `The viewer's file ${asset.file} could not be read: ${error.message}`, hint: 'Reinstall sopworks (npm ci).' });
    else res.destroy(error);
  });
}

/** Path segments, each percent-decoded once; a segment that does not decode is refused. */
function segmentsOf(pathname: string): string[] {
  return pathname
    .split('/')
    .filter((s) => s !== '')
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        throw new HttpError(400, `The path segment "${s}" is not valid percent-encoding.`);
      }
    });
}

export async function startReviewServer(options: ReviewServerOptions): Promise<ReviewServer> {
  const catalog = await RunCatalog.open(options.dir);
  const streams = new Set<http.ServerResponse>();
  let allowedHosts = new Set<string>();
  // Beyond the loopback, anyone on the network can send requests: nothing is read without the token.
  const readsNeedToken = !isLoopback(options.host);
  let guard: WriteGuard | null = null;
  const cache = new RunCache();

  const runDir = async (name: string): Promise<string> => {
    try {
      return await catalog.resolve(name);
    } catch (error) {
      if (error instanceof RunNotFound) throw new HttpError(404, `There is no run called "${name}" in ${catalog.root}.`);
      throw error;
    }
  };

  /** A server-sent event stream: a `change` event now, and again whenever the watched state changes. */
  const events = (res: http.ServerResponse, watch: (onChange: () => void) => Watcher) => {
    res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
    if (res.req.method === 'HEAD') return void res.end();
    streams.add(res);
    let version = 0;
    const send = () => res.write(`event: change\ndata: ${JSON.stringify({ version: ++version })}\n\n`);
    // The first event tells the page to load: nothing that happened between its load and this stream is missed.
    res.write('retry: 2000\n\n');
    send();
    const watcher = watch(send);
    const heartbeat = setInterval(() => res.write(': alive\n\n'), HEARTBEAT_MS);
    res.on('close', () => {
      watcher.close();
      clearInterval(heartbeat);
      streams.delete(res);
    });
  };

  /** POST /api/runs/<name>/decision: the one write, recorded on the run's board as `sopworks approve` records it. */
  const decide = async (req: http.IncomingMessage, res: http.ServerResponse, name: string): Promise<void> => {
    guard!.check(req);
    const dir = await runDir(name);
    const body = DecisionBody.safeParse(await readJsonBody(req));
    if (!body.success) throw new HttpError(400, `Not a decision: ${body.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ')}.`);
    let decided: Awaited<ReturnType<typeof recordDecision>>;
    try {
      decided = await recordDecision(runFiles(dir).state, { approved: body.data.approved, feedback: body.data.feedback || null });
    } catch (error) {
      if (SopworksError.isInstance(error) && (error.code === 'PROJECT_BUSY' || error.code === 'USAGE')) throw new HttpError(409, error.message);
      throw error;
    }
    sendJson(res, 200, {
      decided: decided.map((r) => ({ role: r.role, gate: r.gate, key: r.key, round: r.round, what: describeRequest(r) })),
      approved: body.data.approved,
      next: `sopworks resume ${dir}`,
    });
  };

  /**
   * Before any route: the request is addressed to this viewer's own name (no DNS rebinding), and,
   * bound beyond the loopback, carries the token — but for the token's own exchange and the icon.
   * Returns the path's segments.
   */
  const checkAccess = (req: http.IncomingMessage, url: URL): string[] => {
    if (!allowedHosts.has((req.headers.host ?? '').toLowerCase())) {
      throw new HttpError(
        403,
        `Requests must be addressed to ${[...allowedHosts][0]} (got Host: ${req.headers.host ?? '(none)'}); \`sopworks serve --allow-host <name>\` adds a name.`,
      );
    }
    const parts = segmentsOf(url.pathname);
    const [first] = parts;
    const exchangingToken = url.searchParams.has('token') && (parts.length === 0 || (first === 'runs' && parts.length === 2));
    if (readsNeedToken && !exchangingToken && !guard!.authorised(req) && !(parts.length === 1 && first === 'favicon.ico')) {
      throw new HttpError(
        401,
        `This viewer listens on ${options.host}, beyond this machine: reading needs the token. Open the URL \`sopworks serve\` printed (it ends in ?token=…).`,
      );
    }
    return parts;
  };

  const route = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'POST') {
      res.setHeader('allow', 'GET, HEAD, POST');
      throw new HttpError(405, `${req.method} is not allowed: the viewer reads with GET and decides with POST.`);
    }
    const url = new URL(req.url ?? '/', 'http://viewer.invalid');
    const parts = checkAccess(req, url);
    const [first, second, third, fourth, fifth] = parts;

    if (first === 'api' && second === 'runs' && parts.length === 4 && fourth === 'decision') return decide(req, res, third!);
    if (req.method === 'POST') {
      res.setHeader('allow', 'GET, HEAD');
      throw new HttpError(405, `POST is not allowed at ${url.pathname}: the only write is a decision (POST /api/runs/<name>/decision).`);
    }
    const offered = url.searchParams.get('token');
    if (offered !== null && (parts.length === 0 || (first === 'runs' && parts.length === 2))) {
      if (!guard!.matches(offered))
        throw new HttpError(403, 'This token is not the one `sopworks serve` printed: open the URL it printed, or the page without ?token= to read only.');
      // The token moves into a cookie and out of the address bar (and out of the browser's history).
      res.writeHead(303, { ...SECURITY_HEADERS, 'set-cookie': guard!.cookie(), location: url.pathname });
      return void res.end();
    }
    if (first === 'api' && second === 'session' && parts.length === 2) return sendJson(res, 200, { canDecide: guard!.authorised(req) });
    if (parts.length === 0 || (first === 'runs' && parts.length === 2)) return sendAsset(res, PAGE);
    // Browsers ask for an icon on their own; there is none, and that is not an error worth a 404 in the console.
    if (parts.length === 1 && first === 'favicon.ico') return void res.writeHead(204, SECURITY_HEADERS).end();
    if (first === 'assets' && parts.length === 2) {
      const asset = Object.hasOwn(ASSETS, second!) ? ASSETS[second!] : undefined;
      if (!asset) throw new HttpError(404, `No asset "${second}".`);
      return sendAsset(res, asset);
    }
    if (first === 'api' && second === 'events' && parts.length === 2) return events(res, (onChange) => watchCatalog(catalog, onChange));
    if (first === 'api' && second === 'runs') {
      if (parts.length === 2) return sendJson(res, 200, { root: catalog.root, runs: await catalog.list() });
      const dir = await runDir(third!);
      if (parts.length === 3) return sendJson(res, 200, pageDelta(await cache.page(dir), url.searchParams));
      if (parts.length === 4 && fourth === 'exchanges') {
        const from = PageFrom.safeParse(url.searchParams.get('from') ?? '0');
        const limit = PageLimit.safeParse(url.searchParams.get('limit') ?? '200');
        if (!from.success || !limit.success) throw new HttpError(400, 'Page the exchanges with ?from=<first index>&limit=<1..5000>.');
        const all = exchangeSummaries((await cache.run(dir)).record);
        return sendJson(res, 200, { total: all.length, from: from.data, items: all.slice(from.data, from.data + limit.data) });
      }
      if (parts.length === 5 && fourth === 'messages') {
        const message = (await cache.run(dir)).record.messages.find((m) => m.id === fifth);
        if (!message) throw new HttpError(404, `Run "${third}" has no message ${fifth}.`);
        return sendJson(res, 200, { id: message.id, payload: message.payload });
      }
      if (parts.length === 4 && fourth === 'search') {
        const query = SearchQuery.safeParse(url.searchParams.get('q') ?? '');
        if (!query.success) throw new HttpError(400, `Search: ${query.error.issues[0]?.message}.`);
        const { record } = await cache.run(dir);
        return sendJson(res, 200, searchRun(record.messages, record.exchanges, query.data));
      }
      if (parts.length === 4 && fourth === 'conversations') return sendJson(res, 200, { threads: runConversations((await cache.run(dir)).record) });
      if (parts.length === 4 && fourth === 'events') return events(res, (onChange) => watchRun(dir, onChange));
      if (parts.length === 5 && fourth === 'exchanges') {
        const index = ExchangeIndex.safeParse(fifth);
        if (!index.success) throw new HttpError(400, `"${fifth}" is not an exchange number.`);
        const found = (await cache.run(dir)).record.exchanges.find((e) => e.index === index.data);
        if (!found) throw new HttpError(404, `Run "${third}" has no exchange ${index.data}.`);
        return sendJson(res, 200, { index: found.index, ...found.exchange });
      }
      if (parts.length === 5 && fourth === 'commits') {
        const hash = CommitHash.safeParse(fifth);
        if (!hash.success) throw new HttpError(400, `"${fifth}" is not a full commit hash.`);
        const commits = await readCommits(dir);
        if (!commits.some((c) => c.hash === hash.data)) throw new HttpError(404, `Run "${third}" has no commit ${hash.data}.`);
        return sendJson(res, 200, { hash: hash.data, diff: await readCommitDiff(dir, hash.data) });
      }
    }
    throw new HttpError(404, `Nothing at ${url.pathname}.`);
  };

  const server = http.createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      if (res.headersSent) return res.destroy();
      if (error instanceof HttpError || error instanceof Refusal) return sendJson(res, error.status, { error: error.message });
      options.onError?.(error);
      const hint = SopworksError.isInstance(error) ? error.hint : undefined;
      sendJson(res, 500, { error: describeError(error), hint: hint ?? 'See the terminal running `sopworks serve`.' });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new SopworksError('USAGE', `Port ${options.port} on ${options.host} is already in use.`, {
              hint: 'Pick another with --port (or --port 0 for any free port).',
            })
          : new SopworksError('USAGE', `Cannot listen on ${options.host}:${options.port}: ${error.message}`, { hint: 'Check --host and --port.' }),
      );
    });
    server.listen(options.port, options.host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  guard = writeGuard(port, options.token);
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  allowedHosts = allowedHostsFor(options.host, port, options.allowHosts ?? []);

  const url = `http://${shownHost}:${port}/`;
  return {
    url,
    tokenUrl: `${url}?token=${guard.token}`,
    token: guard.token,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const stream of streams) stream.end();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
