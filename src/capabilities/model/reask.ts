/**
 * What a re-ask says about a rejected reply: the validation error and a short excerpt of the reply
 * around the problem — never the whole reply. A small model's rejected reply is often thousands of
 * tokens of one string; sent back whole, each re-ask's prompt grew by that much until the context
 * overflowed (issue 29). Both parts are bounded in tokens, so a re-ask's prompt is at most
 * `errorTokens + excerptTokens` (plus the repair template) longer than the first attempt's. Pure.
 */

export interface ReaskLimits {
  /** The most tokens of the validation error sent back. */
  errorTokens: number;
  /** The most tokens of the rejected reply sent back. */
  excerptTokens: number;
  /**
   * The most errors of earlier attempts of the same call shown besides the last, and the most tokens of
   * each: a model shown only its last error flips back to the answer refused the time before.
   */
  earlierErrors: number;
  earlierErrorTokens: number;
}

export const REASK_LIMITS: ReaskLimits = { errorTokens: 160, excerptTokens: 200, earlierErrors: 2, earlierErrorTokens: 60 };

export interface Reask {
  /** The validation error, cut to its first problems when long. */
  error: string;
  /** The part of the reply around the problem; empty for an empty reply. */
  excerpt: string;
  /** Whether the excerpt leaves part of the reply out. */
  partial: boolean;
  /** The errors of the earlier attempts of this call, oldest first (bounded: the most recent ones). */
  earlier: string[];
}

type Count = (text: string) => number;

/** The error and excerpt a re-ask sends (see the module comment), with the errors of the attempts before it. */
export function reaskOf(reply: string, error: string, count: Count, limits: ReaskLimits = REASK_LIMITS, earlier: readonly string[] = []): Reask {
  const excerpt = excerptAround(reply, anchorOf(reply, error), count, limits.excerptTokens);
  return {
    error: boundedError(error, count, limits.errorTokens),
    excerpt,
    partial: excerpt.length < reply.trim().length,
    earlier: earlier.slice(-limits.earlierErrors).map((e) => boundedError(e, count, limits.earlierErrorTokens)),
  };
}

/**
 * Where in the reply the error points: a position a JSON parser named, the quoted text or the key of
 * a schema path the error names, the end of a reply that was cut off; else its start.
 */
export function anchorOf(reply: string, error: string): number {
  const position = /\bposition (\d+)/.exec(error);
  if (position) return Math.min(Number(position[1]), reply.length);
  const lineColumn = /\bline (\d+) column (\d+)/.exec(error);
  if (lineColumn) return offsetOfLine(reply, Number(lineColumn[1])) + Number(lineColumn[2]) - 1;
  if (/\bcut off\b/.test(error)) return reply.length;
  for (const [, quoted] of error.matchAll(/"([^"\n]{3,120})"/g)) {
    const at = reply.indexOf(quoted!);
    if (at >= 0) return at;
  }
  // A schema path (`- design.files.2.path: …`): its deepest key the reply has (a missing one names its parent).
  for (const [, path] of error.matchAll(/^- ([\w.]+):/gm)) {
    const keys = path!.split('.').filter((part) => !/^\d+$/.test(part));
    for (const key of keys.reverse()) {
      const at = reply.indexOf(`"${key}"`);
      if (at >= 0) return at;
    }
  }
  return 0;
}

function offsetOfLine(text: string, line: number): number {
  let offset = 0;
  for (let n = 1; n < line; n++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  return offset;
}

/** A window of the reply around `anchor` (a third before, the rest after) of at most `tokens` tokens. */
function excerptAround(reply: string, anchor: number, count: Count, tokens: number): string {
  const text = reply.trim();
  if (text === '') return '';
  if (count(text) <= tokens) return text;
  // Characters per token vary (code, prose, junk): start from a generous guess and shrink to fit.
  let width = Math.min(text.length, tokens * 4);
  for (;;) {
    const start = Math.max(0, Math.min(anchor - Math.floor(width / 3), text.length - width));
    const window = text.slice(start, start + width);
    if (count(window) <= tokens || width <= 16) return window;
    width = Math.floor(width * 0.75);
  }
}

/** The error, its first lines kept whole while they fit, and how many problems were left out. */
function boundedError(error: string, count: Count, tokens: number): string {
  if (count(error) <= tokens) return error;
  const lines = error.split('\n');
  const kept: string[] = [];
  for (const line of lines) {
    const next = [...kept, line].join('\n');
    if (count(next) > tokens - 12) break;
    kept.push(line);
  }
  if (kept.length === 0) {
    // One long line: its start, cut to fit.
    let head = lines[0]!.slice(0, tokens * 3);
    while (count(head) > tokens - 4 && head.length > 16) head = head.slice(0, Math.floor(head.length * 0.75));
    return `${head}…`;
  }
  const left = lines.length - kept.length;
  return `${kept.join('\n')}\n(and ${left} more ${left === 1 ? 'line' : 'lines'} of problems)`;
}
