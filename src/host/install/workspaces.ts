/**
 * A repository's workspaces — the packages of a monorepo that its package manager links to each other
 * and installs together: package.json's `workspaces` (npm, yarn: a list, or `{ packages: [...] }`),
 * pnpm-workspace.yaml's `packages`. Each pattern names folders of the project (globs, `!` to leave
 * some out); a folder is a workspace when it holds a package.json. Found by walking the project
 * without following a link, so a workspace is always a folder inside it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Minimatch } from 'minimatch';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';

export interface Workspace {
  /** The folder, relative to the project (`packages/a`). */
  folder: string;
  /** Its package name, when its package.json names one. */
  name: string | null;
}

const Patterns = z.union([z.array(z.string()), z.object({ packages: z.array(z.string()).optional() }).passthrough()]);

/** The workspace patterns a package.json declares, or null when it declares none. */
export function declaredWorkspaces(manifest: Record<string, unknown>): string[] | null {
  if (manifest.workspaces === undefined) return null;
  const parsed = Patterns.safeParse(manifest.workspaces);
  if (!parsed.success) return [];
  return Array.isArray(parsed.data) ? parsed.data : (parsed.data.packages ?? []);
}

/** Folders never searched for workspaces: installed packages, git's, sopworks'. */
const SKIPPED = new Set(['node_modules', '.git', '.sopworks', '.venv', '.yarn', '.pnpm-store']);
/** How deep patterns reach (`packages/*` is two levels): deeper folders are not searched. */
const MAX_DEPTH = 6;
const MAX_FOLDERS = 20_000;

/** The workspaces the patterns name, sorted by folder. */
export function findWorkspaces(projectDir: string, patterns: readonly string[]): Workspace[] {
  const clean = (pattern: string) => pattern.replace(/^\.\//, '').replace(/\/+$/, '');
  const include = patterns.filter((p) => !p.startsWith('!')).map((p) => new Minimatch(clean(p), { dot: false }));
  const exclude = patterns.filter((p) => p.startsWith('!')).map((p) => new Minimatch(clean(p.slice(1)), { dot: false }));
  if (include.length === 0) return [];
  const found: Workspace[] = [];
  let visited = 0;
  const walk = (relative: string, depth: number) => {
    if (depth > MAX_DEPTH || visited > MAX_FOLDERS) return;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(projectDir, relative), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      // A link is never followed: a workspace must be a folder of the project itself.
      if (!entry.isDirectory() || SKIPPED.has(entry.name)) continue;
      visited++;
      const folder = relative ? `${relative}/${entry.name}` : entry.name;
      if (include.some((m) => m.match(folder)) && !exclude.some((m) => m.match(folder))) {
        const name = packageName(path.join(projectDir, folder, 'package.json'));
        if (name !== undefined) found.push({ folder, name });
      }
      walk(folder, depth + 1);
    }
  };
  walk('', 1);
  return found.sort((a, b) => a.folder.localeCompare(b.folder));
}

/** The package name a package.json gives (null: none); undefined when there is no such regular file. */
function packageName(file: string): string | null | undefined {
  const stat = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!stat?.isFile()) return undefined;
  try {
    const name = (JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: unknown }).name;
    return typeof name === 'string' ? name : null;
  } catch {
    return null;
  }
}

/**
 * The workspace patterns a repository declares — pnpm-workspace.yaml's `packages` when it has that
 * file, else package.json's `workspaces` — read from their texts; null when it declares none. Pure.
 */
export function workspacePatterns(packageJson: string | null, pnpmWorkspace: string | null): string[] | null {
  if (pnpmWorkspace !== null) {
    const packages = z
      .object({ packages: z.array(z.string()).optional() })
      .passthrough()
      .safeParse(parseYamlQuietly(pnpmWorkspace)).data?.packages;
    if (packages) return packages;
  }
  if (packageJson === null) return null;
  try {
    const manifest = JSON.parse(packageJson) as unknown;
    return manifest && typeof manifest === 'object' ? declaredWorkspaces(manifest as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The folders of a listing (each holding a package.json) that the patterns name, sorted. Pure. */
export function matchWorkspaces(folders: readonly string[], patterns: readonly string[]): string[] {
  const clean = (pattern: string) => pattern.replace(/^\.\//, '').replace(/\/+$/, '');
  const include = patterns.filter((p) => !p.startsWith('!')).map((p) => new Minimatch(clean(p), { dot: false }));
  const exclude = patterns.filter((p) => p.startsWith('!')).map((p) => new Minimatch(clean(p.slice(1)), { dot: false }));
  return folders
    .filter((folder) => folder !== '' && !folder.split('/').some((part) => SKIPPED.has(part)))
    .filter((folder) => include.some((m) => m.match(folder)) && !exclude.some((m) => m.match(folder)))
    .sort();
}

function parseYamlQuietly(text: string): unknown {
  try {
    return parseYaml(text);
  } catch {
    return null;
  }
}
