/** Numbers, money, durations and times as a person reads them. */

export const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)}s`;
export const short = (hash: string): string => hash.slice(0, 7);

export const money = (usd: number | null | undefined): string => (usd === null || usd === undefined ? '—' : `$${usd.toFixed(usd < 1 ? 4 : 2)}`);

export const count = (n: number | null | undefined): string => (n === null || n === undefined ? '—' : n.toLocaleString('en-US'));

export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  if (ms < 60_000) return seconds(ms);
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
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
