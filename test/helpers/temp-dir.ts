/**
 * Temporary folders for tests, removed after the test file's run. They are made in one folder of their
 * own under the system's temp folder, so that a worker may be given that folder as its runs root without
 * taking in the checkout too (a clone under /tmp would otherwise lie under it).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** Where every test's temporary folder is made. */
export const TESTS_TEMP_ROOT = path.join(os.tmpdir(), 'sopworks-tests');

const made: string[] = [];

export async function tempDir(prefix = 'sopworks-test-'): Promise<string> {
  await fs.mkdir(TESTS_TEMP_ROOT, { recursive: true });
  const dir = await fs.mkdtemp(path.join(TESTS_TEMP_ROOT, prefix));
  made.push(dir);
  return dir;
}

export async function removeTempDirs(): Promise<void> {
  await Promise.all(made.splice(0).map((dir) => fs.rm(dir, { recursive: true, force: true })));
}
