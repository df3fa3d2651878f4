/**
 * The map of a repository a change run works from — its file tree, manifests, READMEs and each source
 * file's interface (exports and signatures, src/documents/code-interface.ts) — bounded, so a prompt that
 * carries it is about the same size for 20 files as for 500: what does not fit is summarised or
 * counted as omitted, and the company asks for the files it needs (the `read` step).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { codeInterface } from '../../documents/code-interface.ts';
import { git } from '../../host/git/git-process.ts';
import type { RepositoryMap } from '../../documents/change-schemas.ts';

export const MAP_BOUNDS = {
  /** Beyond this many files the tree lists folders with their file counts instead. */
  treeFiles: 150,
  manifests: 4,
  manifestChars: 2500,
  readmeChars: 2500,
  /** All interfaces together. */
  interfaceChars: 4000,
  /** Source files larger than this are not read for their interface. */
  sourceBytes: 200_000,
};

const MANIFESTS = new Set(['package.json', 'pyproject.toml', 'setup.py', 'setup.cfg', 'requirements.txt', 'tsconfig.json', 'Cargo.toml', 'go.mod']);
const SOURCE = /\.(m?[jt]sx?|cjs|cts|py)$/;
const TEST = /(^|\/)(test|tests|__tests__|spec)\/|\.(test|spec)\.[^/]+$|(^|\/)test_[^/]+\.py$|_test\.py$/;

export interface MapInput {
  /** The work tree, checked out at `base`. */
  root: string;
  base: string;
  branch: string;
  slug: string;
}

export async function mapRepository({ root, base, branch, slug }: MapInput): Promise<RepositoryMap> {
  const { stdout } = await git(root, ['ls-tree', '-r', '-z', '--name-only', base]);
  const files = stdout.split('\0').filter(Boolean).sort(byDepthThenName);
  const read = async (file: string, limit: number): Promise<string | null> => {
    const text = await readSmallText(path.join(root, file), MAP_BOUNDS.sourceBytes);
    return text === null ? null : clip(text, limit);
  };

  const manifests: RepositoryMap['manifests'] = [];
  for (const file of files.filter((f) => MANIFESTS.has(path.posix.basename(f)) && f.split('/').length <= 2).slice(0, MAP_BOUNDS.manifests)) {
    const content = await read(file, MAP_BOUNDS.manifestChars);
    if (content !== null) manifests.push({ path: file, content });
  }
  const readmes: RepositoryMap['readmes'] = [];
  const readme = files.find((f) => /^readme(\.\w+)?$/i.test(f));
  if (readme) {
    const content = await read(readme, MAP_BOUNDS.readmeChars);
    if (content !== null) readmes.push({ path: readme, content });
  }

  // Interfaces: the code before the tests, shallow files first, until the bound.
  const sources = files.filter((f) => SOURCE.test(f) && !f.split('/').includes('node_modules'));
  const ordered = [...sources.filter((f) => !TEST.test(f)), ...sources.filter((f) => TEST.test(f))];
  const interfaces: RepositoryMap['interfaces'] = [];
  let used = 0;
  let omitted = 0;
  for (const file of ordered) {
    const content = used < MAP_BOUNDS.interfaceChars ? await readSmallText(path.join(root, file), MAP_BOUNDS.sourceBytes) : null;
    const shape = content === null ? null : codeInterface(file, content).trim();
    if (shape === null || used + shape.length + file.length > MAP_BOUNDS.interfaceChars) {
      omitted++;
      continue;
    }
    used += shape.length + file.length;
    interfaces.push({ path: file, interface: shape });
  }

  const earlierChanges = new Set(files.map((f) => /^docs\/changes\/([^/]+)\//.exec(f)?.[1]).filter(Boolean));
  return {
    base,
    branch,
    changeDir: `docs/changes/${earlierChanges.size + 1}-${slug}`,
    fileCount: files.length,
    tree: renderTree(files),
    manifests,
    readmes,
    interfaces,
    hasTests: files.some((f) => TEST.test(f)),
    omitted,
  };
}

/** Every path when there are few; otherwise the root's files and each folder with its file count. */
function renderTree(files: string[]): string {
  if (files.length <= MAP_BOUNDS.treeFiles) return files.join('\n');
  const folders = new Map<string, number>();
  const top: string[] = [];
  for (const file of files) {
    const parts = file.split('/');
    if (parts.length === 1) top.push(file);
    else {
      const folder = parts.slice(0, Math.min(2, parts.length - 1)).join('/') + '/';
      folders.set(folder, (folders.get(folder) ?? 0) + 1);
    }
  }
  const lines = [...top, ...[...folders].map(([folder, count]) => `${folder} (${count} files)`)];
  const shown = lines.slice(0, MAP_BOUNDS.treeFiles);
  return [
    ...shown,
    ...(lines.length > shown.length ? [`… and ${lines.length - shown.length} more entries`] : []),
    `(${files.length} files in all: ask to read the ones you need)`,
  ].join('\n');
}

/** A file's text, or null when it is binary (a NUL byte), too large, or not a regular file. */
export async function readSmallText(file: string, maxBytes: number): Promise<string | null> {
  const stat = await fs.lstat(file).catch(() => null);
  if (!stat?.isFile() || stat.size > maxBytes) return null;
  const bytes = await fs.readFile(file);
  if (bytes.subarray(0, 8000).includes(0)) return null;
  return bytes.toString('utf8');
}

const clip = (text: string, limit: number): string => (text.length <= limit ? text : `${text.slice(0, limit)}\n… (${text.length - limit} more characters)`);

const byDepthThenName = (a: string, b: string): number => a.split('/').length - b.split('/').length || a.localeCompare(b);
