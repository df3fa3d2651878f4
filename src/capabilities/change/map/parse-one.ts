/** One file's part of a cold map: read it (read-source.ts) and, when it is hand-written source, tag it (file-tags.ts). */
import { type FileTags, fileTags } from './file-tags.ts';
import { readSource } from './read-source.ts';
import type { MapLanguage } from './tag-queries.ts';

export interface ParseJob {
  /** Absolute path of the file. */
  file: string;
  language: MapLanguage;
}

/** Its tags; 'not-source' for a binary, generated or minified file (cached as such); null when it could not be read. */
export type Parsed = FileTags | 'not-source' | null;

export async function parseOne(job: ParseJob): Promise<Parsed> {
  const source = readSource(job.file);
  if (source === null || source === 'not-source') return source;
  return fileTags(job.language, source.text);
}
