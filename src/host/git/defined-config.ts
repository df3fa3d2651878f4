/**
 * Every key defined in the configuration a git process could read in a folder — the system's, the
 * user's, the repository's (`config`, `config.worktree` of the work tree and of the main one) and every
 * file those include — with the file that defines it. git-hardening.ts overrides by name each key that
 * names a program (program-keys.ts) and every filter, diff and merge driver: a repository's attributes
 * (`.gitattributes`, `info/attributes`) only name a driver, the program is named by a definition, so
 * knowing every definition is enough to switch every one off, whatever name the attributes use.
 *
 * Includes are followed whatever their condition (`includeIf "onbranch:…"`, `"gitdir:…"`): a
 * condition that is false here may be true for the work tree sopworks makes next. Each file is read
 * with `git config --file` (git's own parser; no repository is opened, nothing is run), and a file's
 * entries are kept while its size, time and inode stay the same.
 *
 * It fails closed: what cannot be read whole from a repository's configuration — a file git's parser
 * refuses, an include whose target cannot be resolved (`~user/`, `%(prefix)/`) or that nests deeper than
 * git follows — is a refusal naming the file and key, and git-process.ts runs no git there.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type ConfigEntry, gitStdout, readConfigFile } from './read-config-file.ts';

export interface DefinedKey {
  key: string;
  value: string;
  /** The file that defines it. */
  file: string;
}

export interface DefinedConfig {
  keys: DefinedKey[];
  /** What could not be read whole from the repository's own configuration, one line each. */
  refusals: string[];
}

const INCLUDE = /^(include\.path|includeif\..+\.path)$/;
/** How deep includes are followed (git stops at 10 too). */
const MAX_DEPTH = 10;

type Read = { entries: ConfigEntry[]; error: string | null };
const cache = new Map<string, { signature: string; read: Read }>();

/** A file's entries (none when it is missing or not a file), read again only when it changed. */
async function entriesOf(file: string): Promise<Read> {
  const stat = await fs.stat(file).catch(() => null);
  if (!stat?.isFile()) return { entries: [], error: null };
  const signature = `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
  const cached = cache.get(file);
  if (cached?.signature === signature) return cached.read;
  const read = await readConfigFile(file);
  cache.set(file, { signature, read });
  return read;
}

/** Where an include points: `~/` is the home folder, a relative path is relative to the including file; null when it cannot be told. */
function includeTarget(value: string, from: string): string | null {
  if (value.startsWith('~/')) return path.join(os.homedir(), value.slice(2));
  if (value.startsWith('~') || value.startsWith('%(')) return null;
  return path.resolve(path.dirname(from), value);
}

/** The system's and the user's configuration files, as git itself names them (asked once per process). */
let userFiles: Promise<string[]> | null = null;
function userConfigFiles(): Promise<string[]> {
  userFiles ??= Promise.all(
    ['--system', '--global'].map(async (scope) => {
      const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('GIT_')));
      const items = (await gitStdout(['config', scope, '--list', '--show-origin', '-z'], { cwd: os.tmpdir(), env })).split('\0');
      // -z --show-origin: origin, entry, origin, entry, …
      const origins = items.filter((_, index) => index % 2 === 0).filter((o) => o.startsWith('file:'));
      return [...new Set(origins.map((o) => o.slice('file:'.length)))];
    }),
  ).then((lists) => [...new Set([...lists.flat(), path.join(os.homedir(), '.gitconfig')])]);
  return userFiles;
}

/** The repository's own configuration files for a git started in `cwd` (which is its top folder, or not a repository). */
async function repositoryConfigFiles(cwd: string): Promise<string[]> {
  const dotGit = path.join(cwd, '.git');
  const stat = await fs.lstat(dotGit).catch(() => null);
  let gitDir: string;
  if (stat?.isDirectory()) gitDir = dotGit;
  else if (stat?.isFile()) {
    const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(await fs.readFile(dotGit, 'utf8').catch(() => ''));
    if (!pointer) return [];
    gitDir = path.resolve(cwd, pointer[1]!);
  } else if ((await fs.lstat(path.join(cwd, 'HEAD')).catch(() => null))?.isFile()) gitDir = cwd;
  else return [];
  const common = await fs.readFile(path.join(gitDir, 'commondir'), 'utf8').then(
    (text) => path.resolve(gitDir, text.trim()),
    () => gitDir,
  );
  return [...new Set([path.join(common, 'config'), path.join(gitDir, 'config.worktree'), path.join(common, 'config.worktree')])];
}

/** Every key defined where a git process in `cwd` reads configuration, includes followed unconditionally. */
export async function definedConfig(cwd: string): Promise<DefinedConfig> {
  const found: DefinedConfig = { keys: [], refusals: [] };
  const seen = new Set<string>();
  const visit = async (file: string, depth: number, trusted: boolean): Promise<void> => {
    if (seen.has(file)) return;
    seen.add(file);
    const { entries, error } = await entriesOf(file);
    if (error && !trusted) found.refusals.push(`${file} cannot be read by git's own parser (${error})`);
    for (const [key, value] of entries) {
      found.keys.push({ key, value, file });
      if (!INCLUDE.test(key) || value === '') continue;
      const target = includeTarget(value, file);
      if (trusted && (target === null || depth >= MAX_DEPTH)) continue;
      if (target === null) found.refusals.push(`${file} sets ${key} = ${value}, a path sopworks cannot resolve to see what it defines`);
      else if (depth >= MAX_DEPTH) found.refusals.push(`${file} sets ${key}: includes nest deeper than git follows (${MAX_DEPTH})`);
      else await visit(target, depth + 1, trusted);
    }
  };
  // The user's and the system's own files are theirs: what cannot be seen there is not refused.
  for (const file of await userConfigFiles()) await visit(file, 0, true);
  for (const file of await repositoryConfigFiles(path.resolve(cwd))) await visit(file, 0, false);
  return found;
}
