// Durations as people write them ("1h30m", "45m", "2h"), in milliseconds.

const UNITS = { h: 3_600_000, m: 60_000 };

/** Reads "1h30m", "45m" or "2h"; anything else is a RangeError. */
export function parseDuration(text: string): number {
  const parts = /^(?:(\d+)h)?(?:(\d+)m)?$/.exec(text.trim());
  if (!parts || text.trim() === '') throw new RangeError(`not a duration: "${text}"`);
  return Number(parts[1] ?? 0) * UNITS.h + Number(parts[2] ?? 0) * UNITS.m;
}

/** Writes a whole number of minutes as "1h30m", "45m" or "2h". */
export function formatDuration(ms: number): string {
  const minutes = Math.round(ms / UNITS.m);
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `${hours > 0 ? `${hours}h` : ''}${rest > 0 || hours === 0 ? `${rest}m` : ''}`;
}
