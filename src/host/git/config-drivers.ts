/**
 * The filter, diff and merge drivers a git process could run in a folder: every `filter.<name>.*`,
 * `diff.<name>.*` and `merge.<name>.*` defined in any configuration git reads there — the system's,
 * the user's, the repository's (`config`, `config.worktree` of the work tree and of the main one) and
 * every file those include. A repository's attributes (`.gitattributes`, `info/attributes`) only name
 * a driver; the program is named by a definition, so knowing every definition is enough to switch
 * every driver off, whatever name the attributes use (git-hardening.ts).
 *
 * Includes are followed whatever their condition (`includeIf "onbranch:…"`, `"gitdir:…"`): a
 * condition that is false here may be true for the work tree sopworks makes next. Each file is read
 * with `git config --file` (git's own parser; no repository is opened, nothing is run), and a file's
 * entries are kept while its size, time and inode stay the same.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gitStdout, readConfigFile, type ConfigEntry as Entry } from './read-config-file.ts';

export interface DefinedDrivers {
  filter: string[];
  diff: string[];
  merge: string[];
}

const DRIVER = /^(filter|diff|merge)\.(.+)\.[^.]+$/;
const INCLUDE = /^(include\.path|includeif\..+\.path)$/;
/** How deep includes are followed (git stops at 10 too). */
const MAX_DEPTH = 10;

const cache = new Map<string, { signature: string; entries: Entry[] }>();

/** A file's entries (none when it is missing or not a file), read again only when it changed. */
async function entriesOf(file: string): Promise<Entry[]> {
  const stat = await fs.stat(file).catch(() => null);
  if (!stat?.isFile()) return [];
  const signature = `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
  const cached = cache.get(file);
  if (cached?.signature === signature) return cached.entries;
  const entries = await readConfigFile(file);
  cache.set(file, { signature, entries });
  return entries;
}

/** Where an include points: `~/` is the home folder, a relative path is relative to the including file. */
function includeTarget(value: string, from: string): string {
  if (value.startsWith('~/')) return path.join(os.homedir(), value.slice(2));
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

/** Every driver defined in the configuration a git process in `cwd` reads, includes followed unconditionally. */
export async function definedDrivers(cwd: string): Promise<DefinedDrivers> {
  const found = { filter: new Set<string>(), diff: new Set<string>(), merge: new Set<string>() };
  const seen = new Set<string>();
  const visit = async (file: string, depth: number): Promise<void> => {
    if (seen.has(file) || depth > MAX_DEPTH) return;
    seen.add(file);
    for (const [key, value] of await entriesOf(file)) {
      const driver = DRIVER.exec(key);
      if (driver) found[driver[1] as keyof DefinedDrivers].add(driver[2]!);
      else if (INCLUDE.test(key) && value !== '') await visit(includeTarget(value, file), depth + 1);
    }
  };
  for (const file of [...(await userConfigFiles()), ...(await repositoryConfigFiles(path.resolve(cwd)))]) await visit(file, 0);
  return { filter: [...found.filter].sort(), diff: [...found.diff].sort(), merge: [...found.merge].sort() };
}
