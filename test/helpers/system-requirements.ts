/**
 * Suites that need an optional system package (bubblewrap, chromium, redis-server, …).
 * On a machine without it the suite is skipped, and the summary reporter lists what was skipped and
 * how to install it just above its last line; under CI=true a missing package fails the suite, so CI
 * never skips silently.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

export interface SystemRequirement {
  /** What the suite needs, as a person would name it. */
  name: string;
  /** The command that installs it on Debian. */
  install: string;
  /** Why it is missing, or null when it is there. */
  missing(): string | null;
}

/**
 * Shared with the summary reporter: each missing requirement and the suites it skipped — in memory when
 * the suite runs in the reporter's process, and a line each in the file it names (SOPWORKS_SKIPPED_FILE)
 * when files run in mocha's worker processes (--parallel).
 */
const SKIPPED_KEY = Symbol.for('sopworks.skippedSystemSuites');
type Skipped = Map<string, { install: string; reason: string; suites: string[] }>;
function skippedRegistry(): Skipped {
  const holder = globalThis as unknown as Record<symbol, Skipped | undefined>;
  holder[SKIPPED_KEY] ??= new Map();
  return holder[SKIPPED_KEY];
}

export function commandRequirement(name: string, command: string, install: string, args: string[] = ['--version']): SystemRequirement {
  return {
    name,
    install,
    missing() {
      const probe = spawnSync(command, args, { stdio: 'ignore', timeout: 10_000 });
      return probe.error ? `${command} not found` : null;
    },
  };
}

export function fileRequirement(name: string, file: string, install: string): SystemRequirement {
  return { name, install, missing: () => (fs.existsSync(file) ? null : `${file} is missing`) };
}

export const BUBBLEWRAP = commandRequirement('bubblewrap', 'bwrap', 'apt-get install -y bubblewrap');
export const CHROMIUM = fileRequirement('chromium', '/usr/bin/chromium', 'apt-get install -y chromium fonts-liberation');
export const REDIS = commandRequirement('redis-server', 'redis-server', 'apt-get install -y redis-server');
export const PYTHON = commandRequirement('python3', 'python3', 'apt-get install -y python3 python3-venv');
export const GO = commandRequirement('go', 'go', 'apt-get install -y golang-go', ['version']);
/** pytest on the machine's PATH, that runs (a pyenv shim of a Python without it does not): a repository's tests run with it when its own install fails. */
export const PYTEST: SystemRequirement = {
  name: 'pytest',
  install: 'apt-get install -y python3-pytest',
  missing() {
    const probe = spawnSync('pytest', ['--version'], { stdio: 'ignore', timeout: 20_000 });
    return probe.error ? 'pytest not found' : probe.status !== 0 ? `pytest --version exited ${probe.status}` : null;
  },
};
/** A Rust toolchain: Debian's cargo, or rustup's proxy in ~/.cargo/bin (the sandbox finds its toolchain). */
export const CARGO = commandRequirement('cargo', 'cargo', 'apt-get install -y cargo', ['--version']);
export const OPENSSL = commandRequirement('openssl', 'openssl', 'apt-get install -y openssl', ['version']);
/** util-linux's `script`: a pseudo-terminal for the tests that read what a terminal receives. */
export const SCRIPT = commandRequirement('script (util-linux)', 'script', 'apt-get install -y util-linux', ['--version']);
/**
 * A network namespace of the install's own outside bubblewrap: `unshare --net` (as root, or in a user
 * namespace) and `ip` to bring up its loopback.
 */
export const NETWORK_NAMESPACE: SystemRequirement = {
  name: 'network namespaces (unshare --net, iproute2)',
  install: 'apt-get install -y iproute2 util-linux (and run as root, or allow unprivileged user namespaces)',
  missing() {
    const ip = ['/usr/sbin/ip', '/sbin/ip', '/usr/bin/ip', '/bin/ip'].find((file) => fs.existsSync(file));
    if (!ip) return 'ip (iproute2) not found';
    const asRoot = process.getuid?.() === 0;
    const probe = spawnSync('unshare', ['--net', ...(asRoot ? [] : ['--map-root-user']), '--', ip, 'link', 'set', 'lo', 'up'], {
      stdio: 'ignore',
      timeout: 10_000,
    });
    return probe.status === 0 ? null : 'unshare --net cannot make a network namespace here';
  },
};

/**
 * Call in a suite's `before` hook (or at the top of one test): `requireSystem(this, BUBBLEWRAP, PYTHON)`.
 * Skips when any requirement is missing, each missing one recorded for the summary, unless CI=true, where
 * it throws. A hook skipped here ran nothing after this call: its `after` hook must not assume set-up happened.
 */
export function requireSystem(context: Mocha.Context, ...requirements: SystemRequirement[]): void {
  const missing = requirements.map((requirement) => ({ requirement, reason: requirement.missing() })).filter((m) => m.reason !== null);
  if (missing.length === 0) return;
  if (process.env.CI === 'true') {
    throw new Error(missing.map(({ requirement, reason }) => `${requirement.name} is required under CI=true (${reason}): ${requirement.install}`).join('; '));
  }
  const registry = skippedRegistry();
  const suite = context.test?.parent?.fullTitle() ?? 'a suite';
  for (const { requirement, reason } of missing) {
    const entry = registry.get(requirement.name) ?? { install: requirement.install, reason: reason!, suites: [] };
    entry.suites.push(suite);
    registry.set(requirement.name, entry);
    const file = process.env.SOPWORKS_SKIPPED_FILE;
    if (file) fs.appendFileSync(file, `${JSON.stringify({ name: requirement.name, install: requirement.install, reason, suite })}\n`);
  }
  context.skip();
}

/** Worker processes standing for other machines: PID, UTS and network namespaces (util-linux, iproute2), as root. */
export const NAMESPACES: SystemRequirement = {
  name: 'Linux namespaces as root (unshare, ip netns)',
  install: 'apt-get install -y util-linux iproute2, and run the tests as root',
  missing() {
    if (process.getuid?.() !== 0) return 'the tests do not run as root';
    const unshare = spawnSync('unshare', ['--uts', '--pid', '--fork', '--mount-proc', 'true'], { stdio: 'ignore', timeout: 10_000 });
    if (unshare.error || unshare.status !== 0) return 'unshare --pid --fork --mount-proc fails here';
    const ip = spawnSync('ip', ['netns', 'list'], { stdio: 'ignore', timeout: 10_000 });
    return ip.error || ip.status !== 0 ? 'ip netns is not available (iproute2)' : null;
  },
};

/** A second user (`nobody`) for a guard's test, played by root: what the user running sopworks cannot undo. */
export const SECOND_USER: SystemRequirement = {
  name: 'root, to act as a second user (nobody)',
  install: 'run the tests as root',
  missing() {
    if (process.getuid?.() !== 0) return 'the tests do not run as root';
    const probe = spawnSync(process.execPath, ['-e', ''], { uid: 65534, gid: 65534, stdio: 'ignore', timeout: 10_000 });
    return probe.status === 0 ? null : 'node cannot be started as nobody (uid 65534)';
  },
};
