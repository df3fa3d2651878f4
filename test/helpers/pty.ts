/**
 * Runs the real CLI under a pseudo-terminal (util-linux `script`), as a person at a terminal would, and
 * keeps the exact bytes it printed there — what a terminal would obey. Colours are on (a TTY), so
 * sopworks' own SGR sequences are in the bytes; the line discipline turns each "\n" into "\r\n".
 */
import { spawn } from 'node:child_process';
import { BIN } from './paths.ts';

export interface PtyResult {
  code: number | null;
  bytes: Buffer;
}

const quote = (arg: string): string => `'${arg.replace(/'/g, `'\\''`)}'`;

export function runCliInPty(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<PtyResult> {
  const command = [process.execPath, BIN, ...args].map(quote).join(' ');
  return new Promise((resolve, reject) => {
    // -q: no banner, -f: flush as written, -e: the command's exit code; the typescript file is discarded.
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      cwd: options.cwd,
      env: { ...options.env, TERM: 'xterm' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, bytes: Buffer.concat(chunks) }));
  });
}

/**
 * The printed text without the live status line (src/apps/console/live-status.ts): each drawing — dim,
 * "⋯ " then text holding no escape, CR or LF — with the carriage return and erase that take it away.
 * Only that exact shape is sopworks' own; a control inside a drawing leaves it in place, to be found.
 */
const withoutStatusLine = (text: string): string => text.replace(/\x1b\[2m⋯ [^\x1b\r\n]*\x1b\[22m\r\x1b\[2K/g, '');

/** What in printed bytes a terminal would obey beyond colour (and the status line's own erase): every escape that is not SGR, a CR not before LF, C1 and bidi controls. */
export function terminalControls(bytes: Buffer): string[] {
  const text = withoutStatusLine(bytes.toString('utf8'));
  const found: string[] = [];
  for (const match of text.matchAll(/\x1b(\[[0-9;]*m)?/g)) if (!match[1]) found.push(JSON.stringify(text.slice(match.index, match.index + 8)));
  for (const match of text.matchAll(/\r(?!\n)/g)) found.push(`lone CR at ${match.index}`);
  for (const match of text.matchAll(/[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f\u0080-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g))
    found.push(`U+${match[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${match.index}`);
  return found;
}

/** The printed lines as a person reads them: the status line and colours removed, CRLF as one break. */
export const shownLines = (bytes: Buffer): string[] =>
  withoutStatusLine(bytes.toString('utf8'))
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split(/\r?\n/);
