/**
 * Routes as a table: each a method, a path pattern (`/api/runs/:run/exchanges/:index`, matched by
 * path-to-regexp, each parameter percent-decoded once) and a handler. Finding a route says which
 * route answers, or which methods the path does take (a 405), or nothing (a 404).
 */
import { type MatchFunction, match } from 'path-to-regexp';
import { HttpError } from './http-kit.ts';

export type Method = 'GET' | 'POST';

export interface Route<H> {
  method: Method;
  path: string;
  handle: H;
  /** A page a person opens: it may carry the printed token (?token=), exchanged for a cookie. */
  page?: boolean;
}

export type Found<H> = { route: Route<H>; params: Record<string, string> } | { allow: Method[] } | null;

const decode = (segment: string): string => {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, `The path segment "${segment}" is not valid percent-encoding.`);
  }
};

export function routeTable<H>(routes: readonly Route<H>[]): (method: string, pathname: string) => Found<H> {
  const compiled = routes.map((route) => ({ route, match: match(route.path, { decode, sensitive: true }) as MatchFunction<Record<string, string>> }));
  return (method, pathname) => {
    const allow: Method[] = [];
    for (const { route, match: matches } of compiled) {
      const found = matches(pathname);
      if (!found) continue;
      if (route.method === method || (route.method === 'GET' && method === 'HEAD')) return { route, params: found.params };
      allow.push(route.method);
    }
    return allow.length ? { allow } : null;
  };
}
