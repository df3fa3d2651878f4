/**
 * Text that sopworks did not write — a model's reply, a file name, a repository's config or commit,
 * job data from Redis, a server's answer, a program's output — made safe to print. A terminal obeys
 * control characters: ESC starts sequences that set the window title, clear the screen, move the
 * cursor or colour what follows; CR returns to the start of the line to overwrite it; a newline
 * starts a line that looks like sopworks' own. So every control character (C0, DEL, C1) and every
 * bidirectional override (which reorders what is shown) is replaced by a visible stand-in — a control
 * picture such as ␛ or ␊, or � — never dropped silently, so tampering shows.
 *
 * `cleanLine` is for a value printed inside a line (a title, a name, a reason): nothing may break the
 * line. `cleanBlock` is for text whose layout is its own (a program's output, an artifact shown for
 * approval): newlines and tabs stay. `terminalSafe` is the last guard where output leaves sopworks
 * (src/apps/cli/output.ts): like `cleanBlock`, but sopworks' own colours (SGR sequences) stay.
 *
 * What a control character is comes from text/control-characters.ts, shared with `oneLine`
 * (text/one-line.ts), which removes them from metadata instead of showing them.
 */
import { CONTROL, LAYOUT } from './text/index.ts';

const IN_BLOCK = new RegExp(`\\r\\n|[${CONTROL}]`, 'g');
const IN_LINE = new RegExp(`[${LAYOUT}${CONTROL}]`, 'g');
/** An SGR sequence (colour, bold, reset): the only escape sequence sopworks itself prints. */
const WITH_COLOURS = new RegExp(`\\x1b\\[[0-9;]{0,32}m|\\r\\n|[${CONTROL}]`, 'g');

/** The visible stand-in of one control character. */
function standIn(char: string): string {
  if (char === '\r\n') return '\n';
  if (char === '\t') return ' ';
  const code = char.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  return '\ufffd';
}

/** One line: every control character, newlines and tabs included, shown as a stand-in. */
export function cleanLine(text: string): string {
  return text.replace(IN_LINE, standIn);
}

/** Text with its own layout: newlines and tabs kept (CRLF as a newline), every other control shown as a stand-in. */
export function cleanBlock(text: string): string {
  return text.replace(IN_BLOCK, standIn);
}

/** What is written to the terminal: `cleanBlock`, keeping sopworks' own colour sequences. */
export function terminalSafe(text: string): string {
  return text.replace(WITH_COLOURS, (match) => (match.length > 2 && match.startsWith('\x1b[') ? match : standIn(match)));
}

const ANY_CONTROL = new RegExp(`[${LAYOUT}${CONTROL}]`);

/** Whether the text holds anything `cleanLine` would replace. */
export function hasControls(text: string): boolean {
  return ANY_CONTROL.test(text);
}

/**
 * A file name as a prompt or a line shows it: bare when it is plain, else quoted as a JSON string
 * (`"a\nb.js"`), so a newline, a quote or a control character in a name can never forge a line.
 */
export function quotedName(name: string): string {
  if (!ANY_CONTROL.test(name) && !/["\\]/.test(name) && name.trim() === name) return name;
  return JSON.stringify(name).replace(new RegExp(`[${CONTROL}]`, 'g'), (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Every string inside a value (objects and arrays walked, other values kept) as `clean` makes it —
 * `cleanLine` by default: a report's data before it is laid out. JSON output passes `cleanBlock`: JSON
 * escapes a newline, but not C1 or a bidirectional override, and a script may print a field as it is.
 */
export function cleanStrings<T>(value: T, clean: (text: string) => string = cleanLine): T {
  if (typeof value === 'string') return clean(value) as T;
  if (Array.isArray(value)) return value.map((inner) => cleanStrings(inner, clean)) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, cleanStrings(inner, clean)])) as T;
  return value;
}
