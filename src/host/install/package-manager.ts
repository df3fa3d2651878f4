/**
 * Which package manager a Node repository installs with, as its maintainers do: the `packageManager`
 * field of package.json first (corepack's rule: `pnpm@10.33.0`, optionally `+sha512.<hex>`), else its
 * lockfile — pnpm-lock.yaml, yarn.lock (Yarn 2+ when it has a `__metadata` block or the repository a
 * .yarnrc.yml, else Yarn 1), package-lock.json or npm-shrinkwrap.json — else npm. Pure: the caller
 * says which files exist and what they hold.
 */
import { ManifestProblem } from './manifest-problem.ts';

export type NodeManager = 'npm' | 'pnpm' | 'yarn-classic' | 'yarn-berry';

export interface ManagerChoice {
  manager: NodeManager;
  /** The exact version the repository names in `packageManager`; null: any that reads its lockfile. */
  version: string | null;
  /** The range of versions that read its lockfile, when no exact version is named (`10`, `1`, `4`). */
  range: string;
  /** The tarball's hash `packageManager` gives (corepack's `+sha512.<hex>`), to check what is fetched. */
  hash: { algorithm: string; hex: string } | null;
  /** What chose it, as a person reads it. */
  because: string;
  /** The lockfile this manager reads and writes. */
  lockfile: string;
  /** Lockfiles of other managers the repository also holds: not used, and said. */
  ignoredLockfiles: string[];
}

export const LOCKFILES: Record<NodeManager, string> = {
  npm: 'package-lock.json',
  pnpm: 'pnpm-lock.yaml',
  'yarn-classic': 'yarn.lock',
  'yarn-berry': 'yarn.lock',
};

const FIELD = /^(npm|pnpm|yarn|bun)@(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)(?:\+(sha1|sha224|sha256|sha384|sha512)\.([0-9a-f]+))?$/;

export interface RepositoryFiles {
  /** The package.json's `packageManager`, if it has one. */
  packageManager: unknown;
  has(file: string): boolean;
  /** The start of a file (enough to read a lockfile's version), or null. */
  head(file: string): string | null;
}

/** The package manager of a repository; throws ManifestProblem for one sopworks cannot install with. */
export function chooseManager(files: RepositoryFiles): ManagerChoice {
  const present = ['pnpm-lock.yaml', 'yarn.lock', 'package-lock.json', 'npm-shrinkwrap.json', 'bun.lock', 'bun.lockb'].filter((file) => files.has(file));
  const field = typeof files.packageManager === 'string' ? files.packageManager.trim() : null;
  if (field !== null) {
    const match = FIELD.exec(field);
    if (!match) {
      throw new ManifestProblem(
        `package.json: packageManager "${field}" is not <npm|pnpm|yarn>@<exact version>[+<algorithm>.<hex hash>] (corepack's form, e.g. "pnpm@10.33.0")`,
      );
    }
    const [, name, version, algorithm, hex] = match;
    if (name === 'bun') throw bunProblem(`package.json packageManager: ${field}`);
    const manager: NodeManager = name === 'yarn' ? (Number(version!.split('.')[0]) >= 2 ? 'yarn-berry' : 'yarn-classic') : (name as 'npm' | 'pnpm');
    return choice(manager, version!, algorithm ? { algorithm, hex: hex! } : null, `package.json packageManager: ${field}`, present, files);
  }
  if (present.includes('pnpm-lock.yaml')) return choice('pnpm', null, null, 'pnpm-lock.yaml', present, files);
  if (present.includes('yarn.lock')) {
    const berry = /^__metadata:/m.test(files.head('yarn.lock') ?? '') || files.has('.yarnrc.yml');
    return choice(berry ? 'yarn-berry' : 'yarn-classic', null, null, 'yarn.lock', present, files);
  }
  if (present.includes('package-lock.json') || present.includes('npm-shrinkwrap.json')) {
    return choice('npm', null, null, present.includes('npm-shrinkwrap.json') ? 'npm-shrinkwrap.json' : 'package-lock.json', present, files);
  }
  if (present.some((file) => file.startsWith('bun.'))) throw bunProblem(present.find((file) => file.startsWith('bun.'))!);
  return choice('npm', null, null, 'no lockfile: npm, the default', present, files);
}

function choice(
  manager: NodeManager,
  version: string | null,
  hash: ManagerChoice['hash'],
  because: string,
  present: string[],
  files: RepositoryFiles,
): ManagerChoice {
  const own = manager === 'npm' ? ['package-lock.json', 'npm-shrinkwrap.json'] : [LOCKFILES[manager]];
  return {
    manager,
    version,
    range: version ?? compatibleRange(manager, files),
    hash,
    because,
    lockfile: LOCKFILES[manager],
    ignoredLockfiles: present.filter((file) => !own.includes(file)),
  };
}

/** The versions that read the repository's lockfile as it is, when none is named exactly. */
function compatibleRange(manager: NodeManager, files: RepositoryFiles): string {
  if (manager === 'pnpm') {
    const version = /^lockfileVersion:\s*'?(\d+)(?:\.(\d+))?/m.exec(files.head('pnpm-lock.yaml') ?? '');
    const major = Number(version?.[1] ?? 9);
    // 9.0 is written by pnpm 9 and 10; 6.x by pnpm 8; 5.4 by pnpm 7.
    return major >= 9 ? '10' : major >= 6 ? '8' : '7';
  }
  if (manager === 'yarn-berry') {
    const version = Number(/^\s+version:\s*(\d+)/m.exec(files.head('yarn.lock') ?? '')?.[1] ?? 8);
    return version >= 7 ? '4' : version >= 5 ? '3' : '2';
  }
  return manager === 'yarn-classic' ? '1' : '*';
}

const bunProblem = (because: string) =>
  new ManifestProblem(
    `the repository installs with Bun (${because}), which sopworks does not run: it installs with npm, pnpm or Yarn. Add a package-lock.json, pnpm-lock.yaml or yarn.lock (or a packageManager field naming one of them) to install it here`,
  );

/** The manager as a person names it. */
export const managerName = (manager: NodeManager): string =>
  ({ npm: 'npm', pnpm: 'pnpm', 'yarn-classic': 'Yarn 1', 'yarn-berry': 'Yarn (2 or later)' })[manager];
