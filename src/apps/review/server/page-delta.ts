/**
 * What a run page needs after a change: only what changed since it last asked. The page says which
 * version of each section it holds (`have=section.version,…`), how many messages it has
 * (`timelineFrom`) and which run it shows (`identity`); the answer carries the sections whose version
 * differs and the messages after those it has. A different identity (a `--force` re-run) gets everything.
 */
import crypto from 'node:crypto';
import { z } from 'zod';
import type { RunPage } from '../run-page.ts';

const Have = z
  .string()
  .max(4000)
  .transform(
    (text) =>
      new Map(
        text
          .split(',')
          .filter(Boolean)
          .map((pair) => pair.split('.', 2) as [string, string]),
      ),
  );
const From = z.coerce.number().int().min(0).max(10_000_000);

/** Tells two runs under one name apart: when it started, and its first message. */
export const pageIdentity = (page: RunPage): string => `${page.info?.startedAt ?? ''}|${page.timeline[0]?.id ?? ''}|${page.timeline[0]?.createdAt ?? ''}`;

const versionOf = (value: unknown): string =>
  crypto
    .createHash('sha1')
    .update(JSON.stringify(value) ?? '')
    .digest('base64url')
    .slice(0, 12);

export interface PageDelta {
  identity: string;
  /** The version of every section, for the page to send back next time. */
  versions: Record<string, string>;
  /** The index of the first message in `timeline`. */
  timelineFrom: number;
  timelineTotal: number;
  [section: string]: unknown;
}

export function pageDelta(page: RunPage & { launch?: unknown }, params: URLSearchParams): PageDelta {
  const identity = pageIdentity(page);
  const sameRun = params.get('identity') === identity;
  const have = sameRun ? (Have.safeParse(params.get('have') ?? '').data ?? new Map<string, string>()) : new Map<string, string>();
  const asked = sameRun ? (From.safeParse(params.get('timelineFrom') ?? '0').data ?? 0) : 0;
  // A board never shrinks within one run; if it did, everything is sent again.
  const from = asked <= page.timeline.length ? asked : 0;
  const delta: PageDelta = { identity, versions: {}, timelineFrom: from, timelineTotal: page.timeline.length, timeline: page.timeline.slice(from) };
  for (const [key, value] of Object.entries(page)) {
    if (key === 'timeline') continue;
    const version = versionOf(value);
    delta.versions[key] = version;
    if (have.get(key) !== version) delta[key] = value;
  }
  return delta;
}
