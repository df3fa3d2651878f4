/**
 * The bubblewrap sandbox: new namespaces for everything (no network — not even the host's loopback;
 * an install gets only the egress proxy's socket — and its own process tree), an empty root holding only the system folders
 * read-only, the runtime's install folder read-only, a private /tmp, an empty HOME, and the project
 * as the one writable folder, mounted at /project — its `.git/` and `.sopworks/` bound read-only over it.
 * The root is remounted read-only at the end, so a
 * write anywhere else fails with EROFS (which the run then reports).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/** Where the project is inside the sandbox: the same on every machine, so outputs read the same. */
export const SANDBOX_PROJECT = '/project';
export const SANDBOX_HOME = '/home/sandbox';
export const SANDBOX_TMP = '/tmp';

/** How the host's top-level system folders look: bound as folders, or recreated as links (merged /usr). */
export type SystemEntry = { path: string; kind: 'dir' } | { path: string; kind: 'symlink'; target: string };

/** Files of /etc a runtime may read (users, dynamic linker, time zone, certificates) — never all of /etc. */
const ETC_FILES = [
  '/etc/passwd',
  '/etc/group',
  '/etc/nsswitch.conf',
  '/etc/hosts',
  '/etc/localtime',
  '/etc/timezone',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/alternatives',
  '/etc/ssl',
  '/etc/ca-certificates',
  '/etc/mime.types',
];

export interface BubblewrapPlan {
  /** The project folder on the host; mounted writable at /project. */
  projectDir: string;
  /** Extra folders to bind read-only at the same path (a runtime outside /usr). */
  roots: string[];
  env: Record<string, string>;
  argv: readonly string[];
  /**
   * Files bound at a path of the sandbox's own (the egress proxy's socket, its CA certificate): the
   * sandbox never shares the host's network; an install reaches out only through that socket.
   */
  binds?: readonly { source: string; target: string; readOnly: boolean }[];
  /**
   * Entries of the project bound read-only over the writable project (`.git`, `.sopworks`): generated
   * code can read the repository but not change its metadata or the run's record. Only existing ones.
   */
  readOnly?: readonly string[];
  /** Size of the private /tmp and HOME (tmpfs), in bytes; absent: the kernel's default (half the RAM). */
  tmpBytes?: number;
}

/** The bwrap command line for a plan. Pure: the host's layout is passed in. */
export function bubblewrapArgs(plan: BubblewrapPlan, system: readonly SystemEntry[], etc: readonly string[]): string[] {
  const args = ['--die-with-parent', '--new-session', '--unshare-all', '--cap-drop', 'ALL'];
  for (const entry of system) {
    if (entry.kind === 'dir') args.push('--ro-bind', entry.path, entry.path);
    else args.push('--symlink', entry.target, entry.path);
  }
  for (const file of etc) args.push('--ro-bind', file, file);
  for (const root of plan.roots) args.push('--ro-bind', root, root);
  const size = plan.tmpBytes ? ['--size', String(plan.tmpBytes)] : [];
  args.push('--proc', '/proc', '--dev', '/dev', ...size, '--tmpfs', SANDBOX_TMP, ...size, '--tmpfs', SANDBOX_HOME);
  args.push('--bind', plan.projectDir, SANDBOX_PROJECT);
  for (const name of plan.readOnly ?? []) args.push('--ro-bind', path.join(plan.projectDir, name), path.posix.join(SANDBOX_PROJECT, name));
  for (const bind of plan.binds ?? []) args.push(bind.readOnly ? '--ro-bind' : '--bind', bind.source, bind.target);
  args.push('--chdir', SANDBOX_PROJECT, '--remount-ro', '/');
  args.push('--clearenv');
  for (const [name, value] of Object.entries(plan.env)) args.push('--setenv', name, value);
  args.push('--', ...plan.argv);
  return args;
}

/** The host's /usr and top-level system folders as they are (folders or links into /usr). */
export function systemLayout(): SystemEntry[] {
  const entries: SystemEntry[] = [];
  for (const dir of ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32']) {
    try {
      const stat = fs.lstatSync(dir);
      if (stat.isSymbolicLink()) entries.push({ path: dir, kind: 'symlink', target: fs.readlinkSync(dir) });
      else if (stat.isDirectory()) entries.push({ path: dir, kind: 'dir' });
    } catch {
      // not on this system
    }
  }
  return entries;
}

export function etcFiles(): string[] {
  return ETC_FILES.filter((file) => fs.existsSync(file));
}

export type Availability = { available: true; version: string } | { available: false; reason: string };

let probe: Promise<Availability> | null = null;

/**
 * Whether bubblewrap is installed *and works here* (user namespaces may be disabled, or a container
 * may forbid them): a real sandbox is started once per process and must run `true`.
 */
export function bubblewrapAvailability(): Promise<Availability> {
  probe ??= probeBubblewrap();
  return probe;
}

async function probeBubblewrap(): Promise<Availability> {
  let version: string;
  try {
    version = (await exec('bwrap', ['--version'])).stdout.trim();
  } catch {
    return { available: false, reason: 'bubblewrap (bwrap) is not installed' };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sopworks-bwrap-probe-'));
  try {
    const args = bubblewrapArgs({ projectDir: dir, roots: [], env: { PATH: '/usr/bin:/bin' }, argv: ['true'] }, systemLayout(), etcFiles());
    await exec('bwrap', args, { timeout: 10_000 });
    return { available: true, version };
  } catch (error) {
    const stderr = String((error as { stderr?: string }).stderr ?? (error as Error).message)
      .trim()
      .split('\n')[0];
    return { available: false, reason: `${version} is installed but cannot start a sandbox here (${stderr})` };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
