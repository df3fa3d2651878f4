/**
 * The git on the PATH must read GIT_CONFIG_COUNT (git 2.31, March 2021): that is how every setting of
 * git-hardening.ts reaches git. An older git would ignore it silently and run whatever a repository
 * names, so it is refused before sopworks runs any git — asked once per process.
 */
import { execFile } from 'node:child_process';
import { SopworksError } from '../../ground/errors.ts';

export const OLDEST_GIT: readonly [number, number] = [2, 31];

/** [major, minor] of `git version 2.39.5` (and of vendor builds such as `git version 2.39.5 (Apple Git-143)`), or null. */
export function parseGitVersion(text: string): [number, number] | null {
  const match = /git version (\d+)\.(\d+)/.exec(text);
  return match ? [Number(match[1]), Number(match[2])] : null;
}

export const isOldGit = ([major, minor]: readonly [number, number]): boolean => major < OLDEST_GIT[0] || (major === OLDEST_GIT[0] && minor < OLDEST_GIT[1]);

let checked: Promise<void> | null = null;

/** Resolves when git is new enough; rejects with what to install otherwise (a missing git is left to the command that needs it). */
export function checkGitVersion(): Promise<void> {
  checked ??= new Promise<void>((resolve, reject) => {
    execFile('git', ['--version'], { env: { PATH: process.env.PATH ?? '' } }, (error, stdout) => {
      if (error) return resolve();
      const version = parseGitVersion(stdout);
      if (version === null || !isOldGit(version)) return resolve();
      reject(
        new SopworksError(
          'GIT_FAILED',
          `${stdout.trim()} is too old: sopworks needs git ${OLDEST_GIT.join('.')} or newer to keep a repository from running programs.`,
          {
            hint: "Install a newer git (e.g. from your distribution's backports, or git-scm.com); nothing was run.",
          },
        ),
      );
    });
  });
  return checked;
}
