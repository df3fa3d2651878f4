/** A source file's text for the map: a plain file (never through a symbolic link) of bounded size with no NUL byte, or null. */
import fs from 'node:fs/promises';

/** A source file larger than this is generated (tables, bundles) far more often than written: not parsed. */
export const PARSE_BYTES = 128_000;

export async function readSource(file: string): Promise<string | null> {
  const stat = await fs.lstat(file).catch(() => null);
  if (!stat?.isFile() || stat.size > PARSE_BYTES) return null;
  const bytes = await fs.readFile(file);
  if (bytes.subarray(0, 8000).includes(0)) return null;
  return bytes.toString('utf8');
}
