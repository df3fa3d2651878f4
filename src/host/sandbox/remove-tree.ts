/**
 * Removes a folder the sandbox made (the scratch copy, the private temp folder) whatever generated code
 * left in it. fs.rm works on whole paths, so a tree deeper than a path can name (PATH_MAX) stops it
 * half-way; coreutils' rm walks by file descriptor and gets to the end. It never leaves the folder's
 * filesystem and never follows a link.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

export async function removeTree(dir: string): Promise<void> {
  await fs.rm(dir, { recursive: true, force: true }).catch(() => run('rm', ['-rf', '--one-file-system', '--', dir]));
}
