/**
 * The `read` step's effect: the content of the files a role asked for, whole while the budget allows —
 * `maxChars` a file, `totalChars` for all of them together, shared out so that the smaller files are shown
 * whole and the larger share what is left alike (a 4,000-line test file asked for first no longer leaves
 * the files after it empty) — and, past it, the file's first lines with a
 * line that says how much is missing and where (which lines, how many characters), or, where the request
 * names what it is about (`focus`, else the names its reason gives that the file defines), the file's
 * start, the lines around their definitions and its end (ground/text/file-excerpt.ts): never a refusal, and never cut
 * without saying so. A folder is shown as the files in it (the map may have folded it). A file
 * that is missing, binary or not a plain file is refused with the reason, which the next prompt shows —
 * the model is told, never left guessing.
 */
import fs from 'node:fs/promises';
import type { ReadFiles, ReadRequest } from '../../documents/index.ts';
import { resolveInside } from '../../ground/files/index.ts';
import { excerpt, isProse, namesMentioned } from '../../ground/text/index.ts';
import { renderTree } from './map/render-tree.ts';
import { trackedFiles } from './nearest-path.ts';

export interface ReadBounds {
  maxFiles: number;
  /** Characters of one file shown; the rest of a larger one is said, not shown. */
  maxChars: number;
  /** Characters of all the files together (default: maxFiles × maxChars). */
  totalChars?: number;
}

/** A file many times the bound is not read into memory at all: what it holds past this is said by its size. */
const READ_AT_MOST_BYTES = 4 * 1024 * 1024;

export async function readRequestedFiles(root: string, request: ReadRequest, bounds: ReadBounds): Promise<ReadFiles> {
  const refused: ReadFiles['refused'] = [];
  const read: { path: string; content: string; bytes: number; focus: string[] }[] = [];
  const seen = new Set<string>();
  for (const { path: file, why, focus } of request.files) {
    if (seen.has(file)) continue;
    seen.add(file);
    if (read.length >= bounds.maxFiles) {
      refused.push({ path: file, reason: `only ${bounds.maxFiles} files are read per request` });
      continue;
    }
    const one = await readOne(root, file);
    if (typeof one === 'string') refused.push({ path: file, reason: one });
    // The names asked about, else those its reason gives that the file defines.
    else read.push({ path: file, ...one, focus: focus && focus.length > 0 ? focus : namesMentioned(why, one.content, isProse(file)) });
  }
  const budget = bounds.totalChars ?? bounds.maxFiles * bounds.maxChars;
  const limits = shares(
    read.map((file) => file.content.length),
    budget,
    bounds.maxChars,
  );
  const files = read.map((file, i) => {
    const limit = limits[i]!;
    const why =
      limit < bounds.maxChars ? `the prompt's budget for files read, ${budget} characters, is shared among the ${read.length} files asked for` : undefined;
    const complete = file.bytes <= Buffer.byteLength(file.content);
    if (complete && file.content.length > limit && file.focus.length > 0)
      return { path: file.path, content: focusedPart(file.content, limit, file.focus, why) };
    return { path: file.path, content: inPart(file.content, limit, file.bytes, why) };
  });
  return { files, refused };
}

/**
 * Each file's limit within the budget: the smallest first, each at most an equal part of what is left
 * (and of `maxChars`), so a file that fits its part is whole and what it leaves goes to the larger ones.
 */
export function shares(lengths: readonly number[], budget: number, maxChars: number): number[] {
  const limits = lengths.map(() => 0);
  let left = budget;
  const order = lengths.map((length, i) => ({ length, i })).sort((a, b) => a.length - b.length || a.i - b.i);
  order.forEach(({ length, i }, k) => {
    const part = Math.floor(left / (order.length - k));
    limits[i] = Math.min(length, maxChars, part);
    left -= limits[i]!;
  });
  return limits;
}

async function readOne(root: string, file: string): Promise<string | { content: string; bytes: number }> {
  let target: string;
  try {
    target = await resolveInside(root, file);
  } catch (error) {
    return (error as Error).message;
  }
  const stat = await fs.lstat(target).catch(() => null);
  if (!stat) return 'no such file in the repository';
  if (stat.isDirectory()) return folderListing(root, file);
  if (!stat.isFile()) return 'not a plain file';
  const handle = await fs.open(target, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(Math.min(stat.size, READ_AT_MOST_BYTES)), 0, Math.min(stat.size, READ_AT_MOST_BYTES), 0);
    const bytes = buffer.subarray(0, bytesRead);
    if (bytes.subarray(0, 8000).includes(0)) return 'a binary file: it cannot be read or edited as text';
    return { content: bytes.toString('utf8'), bytes: stat.size };
  } finally {
    await handle.close();
  }
}

/** A folder asked for: the files git tracks in it, one line per folder (a map may have folded it into one line). */
async function folderListing(root: string, folder: string): Promise<string | { content: string; bytes: number }> {
  const prefix = `${folder.replace(/\/+$/, '')}/`;
  const files = (await trackedFiles(root)).filter((file) => file.startsWith(prefix));
  if (files.length === 0) return 'a folder with no file in the repository';
  const content = `(a folder: the ${files.length} files in it, one line per folder)\n${renderTree(files)}\n`;
  return { content, bytes: Buffer.byteLength(content) };
}

/**
 * The file whole when it fits `limit`, else its first whole lines within it and a last line saying what
 * is not shown: which lines, and how many characters (bytes, for a file too large to read at all).
 */
export function inPart(content: string, limit: number, bytes: number = Buffer.byteLength(content), cutBecause?: string): string {
  const complete = bytes <= Buffer.byteLength(content);
  if (complete && content.length <= limit) return content;
  const lineCount = content.split('\n').length - (content.endsWith('\n') ? 1 : 0);
  const cut = limit > 0 ? content.lastIndexOf('\n', limit - 1) : -1;
  const kept = cut < 0 ? '' : content.slice(0, cut + 1);
  const from = kept.split('\n').length;
  const missing = complete ? `${content.length - kept.length} characters` : `about ${bytes - Buffer.byteLength(kept)} bytes`;
  const where = complete ? `lines ${from}–${lineCount} of ${lineCount}` : `line ${from} to the end of a ${bytes}-byte file`;
  const why = cutBecause ?? `a file is shown up to ${limit} characters`;
  return `${kept}… (${missing} not shown: ${where} — ${why})\n`;
}

/** A file too long for its limit, shown around the names asked about (ground/text/file-excerpt.ts), its last line saying so. */
function focusedPart(content: string, limit: number, focus: readonly string[], cutBecause?: string): string {
  const shown = excerpt(content, limit, focus);
  const around = shown.found.length > 0 ? `its start, the lines around ${shown.found.join(', ')} and its end` : 'its start and its end';
  const missing = shown.missing.length > 0 ? `; not defined in it: ${shown.missing.join(', ')}` : '';
  return `${shown.text}… (shown in part: ${around} — ${cutBecause ?? `a file is shown up to ${limit} characters`}${missing})\n`;
}
