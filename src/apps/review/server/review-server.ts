/**
 * The local web viewer's HTTP server (node:http): the page and its assets, a JSON API over the runs in
 * one folder, and a server-sent event stream per run that says when the run has changed. Its routes
 * are a table (read-routes.ts, write-routes.ts); it reads with GET and HEAD, and each write is a POST
 * guarded by a secret token, Origin and Host (write-guard.ts). Bound to 127.0.0.1 by default, and on any
 * address it answers only requests addressed to the name it was started for (allowed-hosts.ts), so a web
 * page elsewhere cannot reach it through DNS rebinding. Bound to anything but the loopback, it serves
 * nothing — runs, prompts, pages — to a request without the token.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describeError, SopworksError } from '../../../ground/errors.ts';
import { allowedHostsFor, isLoopback } from './allowed-hosts.ts';
import { EventStreams } from './event-streams.ts';
import { HttpError, SECURITY_HEADERS, sendJson } from './http-kit.ts';
import { READ_ROUTES } from './read-routes.ts';
import { type Found, routeTable } from './route-table.ts';
import { RunCache } from './run-cache.ts';
import { RunCatalog, RunNotFound } from './run-catalog.ts';
import { type LauncherSettings, RunLauncher } from './run-launcher.ts';
import { watchRun } from './run-watcher.ts';
import type { Handler, ServerContext } from './server-context.ts';
import { Refusal, type WriteGuard, writeGuard } from './write-guard.ts';
import { WRITE_ROUTES } from './write-routes.ts';

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
  /** How the runs a page continues or changes are started: `sopworks` from this package, here, by default. */
  launch?: Partial<LauncherSettings> & {
    /** The model of a change started from a page (`--llm`, `--model` of `sopworks change`); its default otherwise. */
    llm?: string;
    model?: string;
  };
}

export interface ReviewServer {
  url: string;
  /** The URL with the token: opening it lets that browser decide on runs (print it, as Jupyter does). */
  tokenUrl: string;
  token: string;
  /** How many runs this viewer started are still at work. */
  activeRuns(): number;
  /** Interrupts the runs this viewer started (once: `resume` continues them), waits for them, and stops serving. */
  close(): Promise<void>;
}

/** This package's command line: the same path from src/ and from dist/. */
const SOPWORKS_BIN = fileURLToPath(new URL('../../../../bin/sopworks.js', import.meta.url));

const findRoute = routeTable<Handler>([...READ_ROUTES, ...WRITE_ROUTES]);

/** Who may ask what, before any route: the names the viewer answers to, and whether reads need the token. */
interface Access {
  allowedHosts: Set<string>;
  /** Bound beyond the loopback, anyone on the network can send requests: nothing is read without the token. */
  readsNeedToken: boolean;
  host: string;
}

/**
 * Before any route: the request is addressed to this viewer's own name (no DNS rebinding), and, bound
 * beyond the loopback, carries the token — but for the token's own exchange and the icon.
 */
function checkAccess(ctx: ServerContext, access: Access, req: http.IncomingMessage, url: URL, found: Found<Handler>): void {
  if (!access.allowedHosts.has((req.headers.host ?? '').toLowerCase())) {
    throw new HttpError(
      403,
      `Requests must be addressed to ${[...access.allowedHosts][0]} (got Host: ${req.headers.host ?? '(none)'}); \`sopworks serve --allow-host <name>\` adds a name.`,
    );
  }
  if (!access.readsNeedToken || ctx.guard.authorised(req)) return;
  const route = found && 'route' in found ? found.route : null;
  if (route?.path === '/favicon.ico' || (route?.page && url.searchParams.has('token'))) return;
  throw new HttpError(
    401,
    `This viewer listens on ${access.host}, beyond this machine: reading needs the token. Open the URL \`sopworks serve\` printed (it ends in ?token=…).`,
  );
}

function launcherFor(options: ReviewServerOptions['launch'] = {}): { launcher: RunLauncher; changeModel: ServerContext['changeModel'] } {
  const launcher = new RunLauncher({
    command: options.command ?? [process.execPath, SOPWORKS_BIN],
    cwd: options.cwd ?? process.cwd(),
    env: options.env ?? process.env,
  });
  const changeModel = { ...(options.llm ? { llm: options.llm } : {}), ...(options.model ? { model: options.model } : {}) };
  return { launcher, changeModel };
}

function contextFor(catalog: RunCatalog, guard: WriteGuard, streams: EventStreams, launch: ReviewServerOptions['launch']): ServerContext {
  const cache = new RunCache();
  const { launcher, changeModel } = launcherFor(launch);
  const runDir = async (name: string): Promise<string> => {
    try {
      return await catalog.resolve(name);
    } catch (error) {
      if (error instanceof RunNotFound) throw new HttpError(404, `There is no run called "${name}" in ${catalog.root}.`);
      throw error;
    }
  };
  return {
    catalog,
    guard,
    streams,
    runDir,
    loaded: async (name) => cache.run(await runDir(name)),
    page: async (name) => cache.page(await runDir(name)),
    watchRun: (dir) => (onChange) => {
      const files = watchRun(dir, onChange);
      const unsubscribe = launcher.subscribe(dir, onChange);
      return {
        close() {
          files.close();
          unsubscribe();
        },
      };
    },
    launcher,
    changeModel,
  };
}

/** Answers one request: the method, Host and token checks, the token's exchange for a cookie, then the table. */
async function answer(ctx: ServerContext, access: Access, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'POST') {
    res.setHeader('allow', 'GET, HEAD, POST');
    throw new HttpError(405, `${req.method} is not allowed: the viewer reads with GET and writes with POST.`);
  }
  const url = new URL(req.url ?? '/', 'http://viewer.invalid');
  // The Host is checked before the path is read (an unknown name learns nothing of the routes).
  if (!access.allowedHosts.has((req.headers.host ?? '').toLowerCase())) checkAccess(ctx, access, req, url, null);
  const found = findRoute(req.method, url.pathname);
  checkAccess(ctx, access, req, url, found);
  if (found === null) {
    if (req.method !== 'POST') throw new HttpError(404, `Nothing at ${url.pathname}.`);
    res.setHeader('allow', 'GET, HEAD');
    throw new HttpError(405, `POST is not allowed at ${url.pathname}: the only writes are POST /api/runs/<name>/decision, …/answers, …/resume and …/change.`);
  }
  if ('allow' in found) {
    res.setHeader('allow', found.allow.includes('GET') ? 'GET, HEAD' : found.allow.join(', '));
    if (req.method === 'POST')
      throw new HttpError(405, `POST is not allowed at ${url.pathname}: the only writes are POST /api/runs/<name>/decision, …/answers, …/resume and …/change.`);
    throw new HttpError(405, `${req.method} cannot change anything: a write is sent with POST.`);
  }
  const offered = url.searchParams.get('token');
  if (found.route.page && offered !== null) {
    if (!ctx.guard.matches(offered))
      throw new HttpError(403, 'This token is not the one `sopworks serve` printed: open the URL it printed, or the page without ?token= to read only.');
    // The token moves into a cookie and out of the address bar (and out of the browser's history).
    res.writeHead(303, { ...SECURITY_HEADERS, 'set-cookie': ctx.guard.cookie(), location: url.pathname });
    return void res.end();
  }
  await found.route.handle(ctx, { req, res, url, params: found.params });
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new SopworksError('USAGE', `Port ${port} on ${host} is already in use.`, { hint: 'Pick another with --port (or --port 0 for any free port).' })
          : new SopworksError('USAGE', `Cannot listen on ${host}:${port}: ${error.message}`, { hint: 'Check --host and --port.' }),
      );
    });
    server.listen(port, host, resolve);
  });
}

export async function startReviewServer(options: ReviewServerOptions): Promise<ReviewServer> {
  const catalog = await RunCatalog.open(options.dir);
  const streams = new EventStreams();
  let ctx: ServerContext | null = null;
  const access: Access = { allowedHosts: new Set(), readsNeedToken: !isLoopback(options.host), host: options.host };
  const server = http.createServer((req, res) => {
    answer(ctx!, access, req, res).catch((error: unknown) => {
      if (res.headersSent) return res.destroy();
      if (error instanceof HttpError) return sendJson(res, error.status, { error: error.message, ...(error.hint ? { hint: error.hint } : {}) });
      if (error instanceof Refusal) return sendJson(res, error.status, { error: error.message });
      options.onError?.(error);
      const hint = SopworksError.isInstance(error) ? error.hint : undefined;
      sendJson(res, 500, { error: describeError(error), hint: hint ?? 'See the terminal running `sopworks serve`.' });
    });
  });
  await listen(server, options.port, options.host);
  const { port } = server.address() as AddressInfo;
  const guard = writeGuard(port, options.token);
  ctx = contextFor(catalog, guard, streams, options.launch);
  const launcher = ctx.launcher;
  access.allowedHosts = allowedHostsFor(options.host, port, options.allowHosts ?? []);
  const url = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}/`;
  return {
    url,
    tokenUrl: `${url}?token=${guard.token}`,
    token: guard.token,
    activeRuns: () => launcher.active(),
    close: async () => {
      await launcher.close();
      await new Promise<void>((resolve, reject) => {
        streams.endAll();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
