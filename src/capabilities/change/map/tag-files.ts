/**
 * Tags for every source file of a commit the map reads: from the cache when its blob was seen before,
 * otherwise parsed (file-tags.ts) from the work tree, which is checked out at that commit. Files too
 * large to be source anyone edits by hand, generated or minified (read-source.ts), under node_modules/ or
 * vendor/, or not plain files are not parsed: they stay in the tree.
 */
import path from 'node:path';
import { languageOf } from '../../../ground/syntax/index.ts';
import type { FileTags } from './file-tags.ts';
import type { TreeFile } from './list-files.ts';
import { parseFiles } from './parse-pool.ts';
import { PARSE_BYTES } from './read-source.ts';
import { TagCache, type TagEntries } from './tag-cache.ts';
import { isTestPath } from './test-layout.ts';

const SKIPPED_FOLDERS = /(^|\/)(node_modules|vendor|third_party|testdata)\//;

export interface TaggedFile {
  path: string;
  tags: FileTags;
}

export interface Tagging {
  files: TaggedFile[];
  /** How many came from the cache, and how many were parsed now. */
  cached: number;
  parsed: number;
}

/**
 * Test files are not parsed: they are in the tree, and the signatures are the code's. (In Go's standard
 * library they are 43% of the source's bytes, and parsing is what a cold map costs.)
 */
export function parseable(file: TreeFile): boolean {
  return (
    file.regular &&
    file.size <= PARSE_BYTES &&
    languageOf(file.path) !== null &&
    !SKIPPED_FOLDERS.test(file.path) &&
    !MINIFIED_NAME.test(file.path) &&
    !isTestPath(file.path)
  );
}

/** A bundle's minified build, by its name (its content is checked too: read-source.ts). */
const MINIFIED_NAME = /[.-]min\.[cm]?js$/i;

export async function tagFiles(root: string, gitDir: string, files: readonly TreeFile[]): Promise<Tagging> {
  const cache = await TagCache.open(gitDir);
  const sources = files.filter(parseable);
  // Largest first: the workers' last batches are small files, so neither waits long for the other at the end.
  const missing = sources.filter((file) => cache.entries[file.blob] === undefined).sort((a, b) => b.size - a.size);
  const parsed = await parseFiles(missing.map((file) => ({ file: path.join(root, file.path), language: languageOf(file.path)! })));
  const fresh = new Map<string, FileTags | null>();
  // A file that could not be read (null) is left out of the cache: it is tried again next time.
  missing.forEach((file, i) => {
    const result = parsed[i] ?? null;
    if (result !== null) fresh.set(file.blob, result === 'not-source' ? null : result);
  });
  const entries: TagEntries = {};
  const result: Tagging = { files: [], cached: sources.length - missing.length, parsed: missing.length };
  for (const file of sources) {
    const tags = cache.entries[file.blob] !== undefined ? cache.entries[file.blob] : fresh.get(file.blob);
    if (tags === undefined) continue;
    entries[file.blob] = tags;
    if (tags) result.files.push({ path: file.path, tags });
  }
  if (missing.length > 0 || Object.keys(entries).length !== Object.keys(cache.entries).length) await cache.save(entries);
  return result;
}
