/**
 * The files of a commit as git stores them: path, blob hash, size and whether it is a plain file (not a
 * symbolic link or a submodule) — `git ls-tree -r -l -z`, so a file name with a space, a quote or a line
 * break comes through whole.
 */
import { git } from '../../../host/git/index.ts';

export interface TreeFile {
  path: string;
  blob: string;
  size: number;
  /** A regular file (not a symbolic link): only those are read. */
  regular: boolean;
}

export async function listFiles(root: string, commit: string): Promise<TreeFile[]> {
  const { stdout } = await git(root, ['ls-tree', '-r', '-l', '-z', '--full-tree', commit]);
  const files: TreeFile[] = [];
  for (const record of stdout.split('\0')) {
    // "<mode> <type> <hash> <size>\t<path>"; a submodule is a commit, not a blob: it has no files here.
    const match = /^(\d+) (\w+) ([0-9a-f]+) +(\d+|-)\t([\s\S]+)$/.exec(record);
    if (!match || match[2] !== 'blob') continue;
    files.push({ path: match[5]!, blob: match[3]!, size: Number(match[4]), regular: match[1] !== '120000' });
  }
  return files;
}
