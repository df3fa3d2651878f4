/**
 * A change run's existing tests on its base (src/capabilities/test-round/base-tests.ts) install from the repository's lockfile,
 * exactly as locked, without running any package's install scripts, in the sandbox — offline unless
 * the policy grants the install the network. Python lockfiles are not supported yet: with install on,
 * such a project gets nothing installed and the run says so.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface LockfileInstall {
  lockfile: string;
  argv: string[];
}

const NPM_LOCKFILES = ['npm-shrinkwrap.json', 'package-lock.json'];

/** The install command for the project's lockfile, or null when it has none sopworks installs from. */
export function lockfileInstall(projectDir: string, network: boolean): LockfileInstall | null {
  const lockfile = NPM_LOCKFILES.find((name) => fs.existsSync(path.join(projectDir, name)));
  if (!lockfile) return null;
  return { lockfile, argv: ['npm', 'ci', '--ignore-scripts', '--no-audit', '--no-fund', ...(network ? [] : ['--offline'])] };
}
