/**
 * A repository handed to `sopworks change` is foreign: its config, hooks and attributes may name
 * programs for git to run. sopworks' git runs none of them (src/host/git/git-hardening.ts); this names
 * what was found before anything is written, as `resume`, `status` and `review` name a tampered
 * project: a link where the repository's metadata should be is refused (exit 2), the rest — hooks,
 * config keys that run programs, includes, attributes naming drivers, submodules — is said, and
 * switched off for every git sopworks starts.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { SopworksError } from '../../ground/errors.ts';
import { cleanLine } from '../../ground/terminal-text.ts';
import { attributeDrivers, describeFindings, inspectProject } from '../../host/git/index.ts';

/** The warnings to show; throws when the repository cannot be used at all. */
export async function repositoryTampering(repo: string, base: string): Promise<string[]> {
  const findings = await inspectProject(repo);
  if (findings.refusals.length > 0) {
    throw new SopworksError('USAGE', cleanLine(`Refused to change ${repo}: ${findings.refusals.join('; ')}.`), {
      hint: 'git would follow that link to metadata outside the repository. Give a repository whose .git and .git/config are real; nothing was written.',
    });
  }
  const attributes = (await attributeDrivers(repo, base)).map(
    (found) => `${found} — sopworks' git switches every driver off (its program never runs); your own git runs what a config defines for it`,
  );
  const submodules = (await fs.stat(path.join(repo, '.gitmodules')).catch(() => null))
    ? [".gitmodules: submodules are not checked out or fetched in the change's work tree (their folders stay empty)"]
    : [];
  return [...describeFindings(repo, findings), ...[...attributes, ...submodules].map((line) => cleanLine(`${repo}: ${line}`))];
}
