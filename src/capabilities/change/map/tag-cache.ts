/**
 * The map's cache: each source file's tags (file-tags.ts) by its git blob hash, so a second map of the
 * same repository parses only the files that changed (and reads none it found not to be source). One file per repository (keyed by its git
 * folder's path) under SOPWORKS_CACHE_DIR (default: $XDG_CACHE_HOME/sopworks or ~/.cache/sopworks),
 * rewritten whole with the current blobs only, through a rename (a reader never sees half a file).
 * Read through zod: a cache that is damaged, of another version or not ours is ignored, never trusted.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { cacheFolder } from '../../../ground/files/index.ts';
import type { FileTags } from './file-tags.ts';
import { TAG_QUERIES } from './tag-queries.ts';

/** Changes whenever what is cached would be extracted differently: the queries, or this number. */
const EXTRACTOR = 4;
export const CACHE_VERSION = createHash('sha256')
  .update(JSON.stringify([EXTRACTOR, TAG_QUERIES]))
  .digest('hex')
  .slice(0, 16);

const Definition = z.object({
  name: z.string(),
  kind: z.string(),
  line: z.number().int().min(1),
  header: z.array(z.string()),
});

const FileTagsSchema = z.object({
  definitions: z.array(Definition),
  references: z.array(z.tuple([z.string(), z.number().int().min(1)])),
}) satisfies z.ZodType<FileTags>;

const CacheFile = z.object({
  version: z.literal(CACHE_VERSION),
  /** null: the blob is no hand-written source (binary, generated, minified: read-source.ts), so not parsed. */
  entries: z.record(z.string().regex(/^[0-9a-f]{40,64}$/), FileTagsSchema.nullable()),
});

export type TagEntries = Record<string, FileTags | null>;

export const cacheDir = (env: NodeJS.ProcessEnv = process.env): string => cacheFolder(env, 'SOPWORKS_CACHE_DIR');

export class TagCache {
  private constructor(
    private readonly file: string,
    readonly entries: TagEntries,
  ) {}

  /** The cache of the repository whose git folder is `gitDir`; empty when there is none or it cannot be read. */
  static async open(gitDir: string, env: NodeJS.ProcessEnv = process.env): Promise<TagCache> {
    const key = createHash('sha256').update(path.resolve(gitDir)).digest('hex').slice(0, 32);
    const file = path.join(cacheDir(env), 'repo-map', `${key}.json`);
    const text = await fs.readFile(file, 'utf8').catch(() => null);
    let entries: TagEntries = {};
    if (text !== null) {
      try {
        const parsed = CacheFile.safeParse(JSON.parse(text));
        if (parsed.success) entries = parsed.data.entries;
      } catch {
        // not JSON: a cache is only ever a shortcut, so it is rebuilt
      }
    }
    return new TagCache(file, entries);
  }

  /** Writes these entries as the whole cache. A cache that cannot be written costs speed, never the map. */
  async save(entries: TagEntries): Promise<void> {
    const temporary = `${this.file}.${process.pid}.tmp`;
    try {
      await fs.mkdir(path.dirname(this.file), { recursive: true });
      await fs.writeFile(temporary, JSON.stringify({ version: CACHE_VERSION, entries }));
      await fs.rename(temporary, this.file);
    } catch {
      await fs.rm(temporary, { force: true }).catch(() => undefined);
    }
  }
}
