/** Temporary folders for tests, removed after the test file's run. */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const made: string[] = [];

export async function tempDir(prefix = 'sopworks-test-'): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export async function removeTempDirs(): Promise<void> {
  await Promise.all(made.splice(0).map((dir) => fs.rm(dir, { recursive: true, force: true })));
}
