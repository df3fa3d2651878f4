/** Numbers, money, durations and times as a person reads them. */

export const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)}s`;
export const short = (hash: string): string => hash.slice(0, 7);

export const money = (usd: number | null | undefined): string => (usd === null || usd === undefined ? '—' : `$${usd.toFixed(usd < 1 ? 4 : 2)}`);

export const count = (n: number | null | undefined): string => (n === null || n === undefined ? '—' : n.toLocaleString('en-US'));

/**
 * How long a run has taken, waiting included (for a person, for a resume): from its start to its last
 * stop — or to now while it is at work or waits for a person. null when its start is unknown.
 */
export function elapsedMs(startedAt: string | null | undefined, finishedAt: string | null | undefined, open: boolean, now = Date.now()): number | null {
  const start = Date.parse(startedAt ?? '');
  if (Number.isNaN(start)) return null;
  const end = open ? now : Date.parse(finishedAt ?? '');
  return Number.isNaN(end) ? null : Math.max(0, end - start);
}

/** A long duration as a person says it: "6 min 12 s", "2 h 5 min"; seconds below a minute. */
export function longDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  if (ms < 60_000) return seconds(ms);
  const s = Math.round(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  const m = Math.round(s / 60);
  return m < 48 * 60 ? `${Math.floor(m / 60)} h ${m % 60} min` : `${Math.round(m / 1440)} days`;
}

const pad = (n: number) => String(n).padStart(2, '0');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A moment as a person says it, in the reader's time zone: "just now", "5 min ago", "today 14:02",
 * "yesterday 09:30", "12 Mar 14:02", "12 Mar 2024". The exact ISO time is for a tooltip (`isoTitle`).
 */
export function humanTime(iso: string | null | undefined, now: Date = new Date()): string {
  if (!iso) return '—';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const ago = now.getTime() - at.getTime();
  if (ago >= 0 && ago < 45_000) return 'just now';
  if (ago >= 0 && ago < 60 * 60_000) return `${Math.max(1, Math.round(ago / 60_000))} min ago`;
  const clock = `${pad(at.getHours())}:${pad(at.getMinutes())}`;
  const day = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const days = Math.round((day(now) - day(at)) / 86_400_000);
  if (days === 0) return `today ${clock}`;
  if (days === 1) return `yesterday ${clock}`;
  const date = `${at.getDate()} ${MONTHS[at.getMonth()]}`;
  return at.getFullYear() === now.getFullYear() ? `${date} ${clock}` : `${date} ${at.getFullYear()}`;
}

/** A model as the list shows it: a scenario or model file by its name (the whole path is in the title). */
export function shortModel(model: string): string {
  const file = /^(scripted|local):(.*[\\/])([^\\/]+)$/.exec(model);
  return file ? `${file[1]}:…/${file[3]}` : model;
}

/** The exact time, for a title attribute beside a human one. */
export const isoTitle = (iso: string | null | undefined): string | null => {
  if (!iso) return null;
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? null : at.toString();
};
