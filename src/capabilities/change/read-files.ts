/**
 * The `read` step's effect: the content of the files a role asked for, bounded in count and size. A
 * file that is missing, binary, too large or not a plain file is refused with the reason, which the
 * next prompt shows — the model is told, never left guessing.
 */
import fs from 'node:fs/promises';
import type { ReadFiles, ReadRequest } from '../../documents/index.ts';
import { resolveInside } from '../../ground/files/index.ts';

export interface ReadBounds {
  maxFiles: number;
  /** Characters of one file; a larger file is refused (ask for another, or work from the map). */
  maxChars: number;
}

export async function readRequestedFiles(root: string, request: ReadRequest, bounds: ReadBounds): Promise<ReadFiles> {
  const result: ReadFiles = { files: [], refused: [] };
  const seen = new Set<string>();
  for (const { path: file } of request.files) {
    if (seen.has(file)) continue;
    seen.add(file);
    if (result.files.length >= bounds.maxFiles) {
      result.refused.push({ path: file, reason: `only ${bounds.maxFiles} files are read per request` });
      continue;
    }
    const refusal = await readOne(root, file, bounds.maxChars);
    if (typeof refusal === 'string') result.refused.push({ path: file, reason: refusal });
    else result.files.push({ path: file, content: refusal.content });
  }
  return result;
}

async function readOne(root: string, file: string, maxChars: number): Promise<string | { content: string }> {
  let target: string;
  try {
    target = await resolveInside(root, file);
  } catch (error) {
    return (error as Error).message;
  }
  const stat = await fs.lstat(target).catch(() => null);
  if (!stat) return 'no such file in the repository';
  if (!stat.isFile()) return stat.isDirectory() ? 'a folder, not a file: name the files in it (the map lists them)' : 'not a plain file';
  // Bytes first: a file many times the bound is not read into memory at all.
  if (stat.size > maxChars * 4) return `too large (${stat.size} bytes; the limit is ${maxChars} characters): work from its interface in the map`;
  const bytes = await fs.readFile(target);
  if (bytes.subarray(0, 8000).includes(0)) return 'a binary file: it cannot be read or edited as text';
  const content = bytes.toString('utf8');
  if (content.length > maxChars) return `too large (${content.length} characters; the limit is ${maxChars}): work from its interface in the map`;
  return { content };
}
