/**
 * A file's text, or null when there is no such file (yet): logs, records and project files that a run
 * makes as it goes are read this way. Any other failure — no permission, a folder in its place — is
 * thrown, not taken for a missing file.
 */
import fs from 'node:fs/promises';

export async function readTextIfExists(file: string): Promise<string | null> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
