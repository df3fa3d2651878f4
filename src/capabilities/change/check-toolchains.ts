/**
 * Before a change run asks any model anything: the programs its repository's tests need (read from its
 * files at the base: map/test-commands.ts) must be on this machine — for each suite, one of the commands
 * that run it — and a Go or Rust repository's dependencies must be in it (map/unfetched-dependencies.ts:
 * nothing fetches them). A Go repository's tests on a machine without `go`, or needing modules the
 * sandbox cannot download, would otherwise be found out on the base's run, after the first model calls
 * were paid for.
 */
import { SopworksError } from '../../ground/errors.ts';
import { findOnPath, git } from '../../host/git/index.ts';
import { listFiles } from './map/list-files.ts';
import { testCommands } from './map/test-commands.ts';
import { unfetchedDependencies } from './map/unfetched-dependencies.ts';

export async function checkToolchains(repo: string, base: string, onPath: (program: string) => string | null = findOnPath): Promise<void> {
  const files = await listFiles(repo, base);
  const paths = files.map((f) => f.path);
  const small = new Set(files.filter((f) => f.regular && f.size <= 200_000).map((f) => f.path));
  const read = async (file: string) => {
    if (!small.has(file)) return null;
    const blob = await git(repo, ['cat-file', 'blob', `${base}:${file}`], { okCodes: [128] });
    return blob.code === 0 ? blob.stdout : null;
  };
  const commands = await testCommands(paths, read);
  const runnableHere = (command: (typeof commands)[number]) => command.needs.every((need) => onPath(need.program) !== null);
  // A suite runs when one of its commands can (tox.ini's python3 without the Makefile's make, say).
  const stuck = [...new Set(commands.map((c) => c.suite))].filter((suite) => !commands.some((c) => c.suite === suite && runnableHere(c)));
  const missing = commands
    .filter((c) => stuck.includes(c.suite))
    .flatMap((command) => command.needs.filter((need) => onPath(need.program) === null).map((need) => ({ command, need })));
  if (missing.length === 0) return refuseUnfetched(paths, read);
  const lines = missing.map(
    ({ command, need }) => `\`${command.argv.join(' ')}\` (${command.source}) needs \`${need.program}\`, which is not on this machine's PATH`,
  );
  const installs = [...new Set(missing.map(({ need }) => need.install))];
  throw new SopworksError('USAGE', `The repository's tests cannot run here: ${lines.join('; ')}. Nothing was written and no model was asked.`, {
    hint: `Install ${installs.join(', and ')}, then run the change again.`,
  });
}

async function refuseUnfetched(paths: readonly string[], read: (file: string) => Promise<string | null>): Promise<void> {
  const unfetched = await unfetchedDependencies(paths, read);
  if (unfetched.length === 0) return;
  throw new SopworksError(
    'USAGE',
    `The repository's tests cannot build here: ${unfetched.map((u) => u.what).join('; ')}. sopworks installs npm and pip dependencies, not Go modules or Rust crates, and the tests' sandbox has no network. Nothing was written and no model was asked.`,
    {
      hint: `In the repository: ${[...new Set(unfetched.map((u) => u.remedy))].join('; and ')}; then run the change again (--base <that commit> if it is not on the current branch).`,
    },
  );
}
