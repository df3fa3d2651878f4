/**
 * Where the JSON might be in a model's reply: inside fenced blocks (of any language — models put JSON in
 * ```js or ```text fences too) and as balanced `{…}` / `[…]` spans in the prose. A span that never closes
 * is reported as cut off, not completed: closing a truncated object would invent an artifact from half
 * an answer.
 */
import { fencedBlocks } from './fenced-blocks.ts';

export interface JsonCandidate {
  text: string;
  /** False when the span runs to the end of the reply without closing: the reply was cut off. */
  complete: boolean;
}

const JSON_LANGS = /^(json|jsonc|json5)?$/i;

export function jsonCandidates(reply: string): JsonCandidate[] {
  const found: JsonCandidate[] = [];
  const add = (candidate: JsonCandidate) => {
    const text = candidate.text.trim();
    if (!found.some((c) => c.text === text)) found.push({ text, complete: candidate.complete });
  };
  const blocks = fencedBlocks(reply).filter((b) => /^\s*[[{]/.test(b.content));
  for (const block of [...blocks.filter((b) => JSON_LANGS.test(b.lang)), ...blocks.filter((b) => !JSON_LANGS.test(b.lang))]) {
    for (const span of balancedSpans(block.content)) add(span);
  }
  for (const span of balancedSpans(reply)) add(span);
  // The whole JSON sent as one string literal ("{\"a\": 1}"): decoded twice by the caller.
  if (/^\s*"\s*[[{][\s\S]*"\s*$/.test(reply)) add({ text: reply, complete: true });
  return found;
}

/**
 * Top-level spans that open with `{` or `[` and close at the matching bracket, reading strings (double-
 * or single-quoted, with escapes and raw newlines) and comments the way a lenient JSON parser would.
 */
export function balancedSpans(text: string): JsonCandidate[] {
  const spans: JsonCandidate[] = [];
  let unclosed = 0;
  let index = 0;
  while (index < text.length) {
    const start = text.slice(index).search(/[{[]/);
    if (start === -1) break;
    const from = index + start;
    const end = closingIndex(text, from);
    if (end === -1) {
      spans.push({ text: text.slice(from), complete: false });
      // A stray bracket in the prose ("use {name} or {") must not hide the JSON after it: look inside,
      // a bounded number of times (each look reads to the end of the text).
      if (++unclosed >= MAX_UNCLOSED) break;
      index = from + 1;
      continue;
    }
    spans.push({ text: text.slice(from, end + 1), complete: true });
    index = end + 1;
  }
  return spans;
}

const MAX_UNCLOSED = 16;

/** The index of the bracket closing the one at `from`, or -1 when the text ends first. */
function closingIndex(text: string, from: number): number {
  const stack: string[] = [];
  const strings = new StringReader();
  for (let i = from; i < text.length; i++) {
    const inString = strings.read(text, i);
    if (inString !== -1) {
      i = inString;
      continue;
    }
    const ch = text[i]!;
    if (ch === '/' && text[i + 1] === '/') {
      const newline = text.indexOf('\n', i);
      if (newline === -1) return -1;
      i = newline;
      continue;
    }
    if (ch === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      if (close === -1) return -1;
      i = close + 1;
      continue;
    }
    if (ch === '{' || ch === '[') stack.push(ch === '{' ? '}' : ']');
    else if (ch === '}' || ch === ']') {
      // A mismatched closer is a syntax slip for the repair step, not the end of the reply.
      stack.pop();
      if (stack.length === 0) return i;
    }
    strings.saw(ch);
  }
  return -1;
}

/**
 * Whether the JSON leaves content out with an unquoted `...` (`"issues": [...]`, `// ... more tasks`).
 * jsonrepair would quietly drop it, leaving a shorter artifact than the model meant.
 */
export function elidesContent(text: string): boolean {
  const strings = new StringReader();
  for (let i = 0; i < text.length; i++) {
    const inString = strings.read(text, i);
    if (inString !== -1) {
      i = inString;
      continue;
    }
    const ch = text[i]!;
    if (text.startsWith('...', i) || ch === '…') return true;
    strings.saw(ch);
  }
  return false;
}

/**
 * The strings of a JSON text, read the way a lenient parser would: double- or single-quoted, with
 * escapes and raw newlines. A single quote opens a string only where a value or key may start;
 * elsewhere it is an apostrophe.
 */
class StringReader {
  private quote: string | null = null;
  private lastToken = '';

  /**
   * Takes the character at `i` when it is part of a string (or opens one), and returns the index of
   * the last character taken (an escape takes two); -1 when it is outside any string, the caller's.
   */
  read(text: string, i: number): number {
    const ch = text[i]!;
    if (this.quote !== null) {
      if (ch === '\\') return i + 1;
      if (ch === this.quote) {
        this.quote = null;
        this.lastToken = '"';
      }
      return i;
    }
    if (ch === '"' || (ch === "'" && opensValue(this.lastToken))) {
      this.quote = ch;
      return i;
    }
    return -1;
  }

  /** The caller read `ch` outside a string: it becomes the last token unless it is white space. */
  saw(ch: string): void {
    if (!isSpace(ch)) this.lastToken = ch;
  }
}

// These scans run over every character of a reply: plain comparisons, not a regular expression per
// character (a few KB of design took 0.3 ms per reply that way). Non-ASCII goes to the regex, whose
// notion of white space is the one meant.
const opensValue = (token: string): boolean => token === '{' || token === '[' || token === ',' || token === ':';
const isSpace = (ch: string): boolean => {
  const code = ch.charCodeAt(0);
  if (code < 128) return code === 32 || (code >= 9 && code <= 13);
  return /\s/.test(ch);
};
