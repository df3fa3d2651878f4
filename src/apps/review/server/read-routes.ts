/** What the viewer reads: the page and its assets, the run list, one run's sections, and their event streams. */
import { z } from 'zod';
import { readCommitDiff, readCommits } from '../git-history.ts';
import { exchangeSummaries, runConversations } from '../run-page.ts';
import { searchRun } from '../run-search.ts';
import { HttpError, SECURITY_HEADERS, sendAsset, sendJson } from './http-kit.ts';
import { pageDelta } from './page-delta.ts';
import type { Route } from './route-table.ts';
import { watchCatalog } from './run-watcher.ts';
import type { Handler } from './server-context.ts';
import { ASSETS, PAGE } from './static-assets.ts';

const SearchQuery = z.string().trim().min(2, 'give at least 2 characters to look for').max(200, 'look for at most 200 characters');
const Index = z
  .string()
  .regex(/^\d{1,9}$/)
  .transform(Number);
const PageLimit = z
  .string()
  .regex(/^\d{1,4}$/)
  .transform(Number)
  .pipe(z.number().int().min(1).max(5000));
const CommitHash = z.string().regex(/^[0-9a-f]{40}$/, 'a commit is named by its full hash');

const page: Handler = (_, { res }) => sendAsset(res, PAGE);

const asset: Handler = (_, { res, params }) => {
  const name = params.name!;
  const found = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
  if (!found) throw new HttpError(404, `No asset "${name}".`);
  return sendAsset(res, found);
};

/** The run's page, with the run this viewer started in it, if any: what changed since the page's last answer. */
const runPage: Handler = async (ctx, { res, url, params }) => {
  const page = await ctx.page(params.run!);
  const relations = await ctx.catalog.relations(page.dir, page.change?.repo ?? null);
  sendJson(res, 200, pageDelta({ ...page, ...relations, launch: ctx.launcher.viewOf(page.dir) }, url.searchParams));
};

const exchangePage: Handler = async (ctx, { res, url, params }) => {
  const from = Index.safeParse(url.searchParams.get('from') ?? '0');
  const limit = PageLimit.safeParse(url.searchParams.get('limit') ?? '200');
  if (!from.success || !limit.success) throw new HttpError(400, 'Page the exchanges with ?from=<first index>&limit=<1..5000>.');
  const all = exchangeSummaries((await ctx.loaded(params.run!)).record);
  sendJson(res, 200, { total: all.length, from: from.data, items: all.slice(from.data, from.data + limit.data) });
};

const oneExchange: Handler = async (ctx, { res, params }) => {
  const index = Index.safeParse(params.index);
  if (!index.success) throw new HttpError(400, `"${params.index}" is not an exchange number.`);
  const found = (await ctx.loaded(params.run!)).record.exchanges.find((e) => e.index === index.data);
  if (!found) throw new HttpError(404, `Run "${params.run}" has no exchange ${index.data}.`);
  sendJson(res, 200, { index: found.index, ...found.exchange });
};

const oneMessage: Handler = async (ctx, { res, params }) => {
  const message = (await ctx.loaded(params.run!)).record.messages.find((m) => m.id === params.id);
  if (!message) throw new HttpError(404, `Run "${params.run}" has no message ${params.id}.`);
  sendJson(res, 200, { id: message.id, payload: message.payload });
};

const search: Handler = async (ctx, { res, url, params }) => {
  const query = SearchQuery.safeParse(url.searchParams.get('q') ?? '');
  if (!query.success) throw new HttpError(400, `Search: ${query.error.issues[0]?.message}.`);
  const { record } = await ctx.loaded(params.run!);
  sendJson(res, 200, searchRun(record.messages, record.exchanges, query.data));
};

const commitDiff: Handler = async (ctx, { res, params }) => {
  const hash = CommitHash.safeParse(params.hash);
  if (!hash.success) throw new HttpError(400, `"${params.hash}" is not a full commit hash.`);
  const dir = await ctx.runDir(params.run!);
  if (!(await readCommits(dir)).some((c) => c.hash === hash.data)) throw new HttpError(404, `Run "${params.run}" has no commit ${hash.data}.`);
  sendJson(res, 200, { hash: hash.data, diff: await readCommitDiff(dir, hash.data) });
};

export const READ_ROUTES: Route<Handler>[] = [
  { method: 'GET', path: '/', page: true, handle: page },
  { method: 'GET', path: '/runs/:run', page: true, handle: page },
  // Browsers ask for an icon on their own; there is none, and that is not an error worth a 404 in the console.
  { method: 'GET', path: '/favicon.ico', handle: (_, { res }) => void res.writeHead(204, SECURITY_HEADERS).end() },
  { method: 'GET', path: '/assets/:name', handle: asset },
  { method: 'GET', path: '/api/session', handle: (ctx, { req, res }) => sendJson(res, 200, { canDecide: ctx.guard.authorised(req) }) },
  { method: 'GET', path: '/api/events', handle: (ctx, { res }) => ctx.streams.serve(res, (onChange) => watchCatalog(ctx.catalog, onChange)) },
  { method: 'GET', path: '/api/runs', handle: async (ctx, { res }) => sendJson(res, 200, { root: ctx.catalog.root, runs: await ctx.catalog.list() }) },
  { method: 'GET', path: '/api/runs/:run', handle: runPage },
  { method: 'GET', path: '/api/runs/:run/exchanges', handle: exchangePage },
  { method: 'GET', path: '/api/runs/:run/exchanges/:index', handle: oneExchange },
  { method: 'GET', path: '/api/runs/:run/messages/:id', handle: oneMessage },
  { method: 'GET', path: '/api/runs/:run/search', handle: search },
  {
    method: 'GET',
    path: '/api/runs/:run/conversations',
    handle: async (ctx, { res, params }) => sendJson(res, 200, { threads: runConversations((await ctx.loaded(params.run!)).record) }),
  },
  { method: 'GET', path: '/api/runs/:run/events', handle: async (ctx, { res, params }) => ctx.streams.serve(res, ctx.watchRun(await ctx.runDir(params.run!))) },
  { method: 'GET', path: '/api/runs/:run/commits/:hash', handle: commitDiff },
];
