/**
 * Red team, every configuration key that makes git run a program, against every git subcommand
 * sopworks runs. One repository plants them all at once — each program appends its own name to a
 * marker — in its config, in a file its config includes, and on signed commits of each signature format
 * (x509, SSH, OpenPGP) with `log.showSignature` on. A plain git proves each plant live (its control
 * makes the marker name it); then sopworks reads, changes and reviews the repository — the change's
 * checks, its work tree and commits, the viewer's history and patches, eval's diffs, and each git
 * command line sopworks' code runs — and the marker must stay absent. sopworks' git runs outside the
 * sandbox, so the sandbox's mode plays no part here; test/security/change-attack.test.ts runs the
 * whole `change`, `review` and `serve` on such a repository.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { changedCode, runFacts } from '../../src/apps/eval/index.ts';
import { readCommitDiff, readCommits } from '../../src/apps/review/index.ts';
import { checkRepository, listFiles, openWorktree, repositoryTampering, trackedFiles } from '../../src/capabilities/change/index.ts';
import { Workspace } from '../../src/capabilities/repository/index.ts';
import { git, inspectProject, looseEntries, NO_DIFF_PROGRAMS } from '../../src/host/git/index.ts';
import { signedCommit } from '../helpers/signed-commit.ts';
import { requireSystem, SCRIPT } from '../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const plainEnv = (cwd: string) => ({ ...process.env, GIT_CEILING_DIRECTORIES: path.dirname(cwd), GIT_TERMINAL_PROMPT: '0' });
const plain = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=u', '-c', 'user.email=u@x', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: plainEnv(cwd) }).toString();
/** A plain git that may fail (a planted program that fails makes it fail): the marker is what counts. */
const tryPlain = (cwd: string, ...args: string[]) => {
  try {
    plain(cwd, ...args);
  } catch {
    // the plant ran, or git refused: the marker says which
  }
};

interface Plant {
  /** The key the program is planted under (and the word it leaves in the marker). */
  key: string;
  /** A plain git (or a person's terminal) that runs it. */
  control(repo: string): void;
}

/** In a pseudo-terminal, as a person runs git: pagers only start there. */
const atTerminal = (repo: string, command: string) => {
  try {
    execFileSync('script', ['-qec', command, '/dev/null'], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'], env: plainEnv(repo), timeout: 20_000 });
  } catch {
    // the marker says whether it ran
  }
};

const PLANTS: Plant[] = [
  { key: 'gpg.x509.program', control: (repo) => tryPlain(repo, 'log', '-1') },
  { key: 'gpg.ssh.program', control: (repo) => tryPlain(repo, 'log', '-2') },
  { key: 'gpg.openpgp.program', control: (repo) => tryPlain(repo, 'log', '-3') },
  { key: 'pager.show', control: (repo) => atTerminal(repo, 'git -c core.pager=less show --stat HEAD') },
  { key: 'core.pager', control: (repo) => atTerminal(repo, 'git log -1 --no-show-signature') },
  { key: 'alias.lg', control: (repo) => tryPlain(repo, 'lg') },
  { key: 'core.fsmonitor', control: (repo) => tryPlain(repo, 'status', '--porcelain') },
  {
    key: 'credential.helper',
    control: (repo) => {
      try {
        execFileSync('git', ['credential', 'fill'], {
          cwd: repo,
          input: 'protocol=https\nhost=example.invalid\n\n',
          env: plainEnv(repo),
          stdio: 'pipe',
          timeout: 20_000,
        });
      } catch {
        // no credential to give: the marker says whether the helper was asked
      }
    },
  },
  { key: 'core.sshCommand', control: (repo) => tryPlain(repo, 'ls-remote', 'ssh://nobody@127.0.0.1:9/x') },
  { key: 'core.editor', control: (repo) => tryPlain(repo, 'commit', '--allow-empty', '-q') },
  { key: 'diff.external', control: (repo) => tryPlain(repo, 'diff', 'HEAD~4', 'HEAD') },
  { key: 'diff.conv.textconv', control: (repo) => tryPlain(repo, 'log', '-p', '-4', '--no-show-signature') },
  { key: 'filter.smudgy.smudge', control: (repo) => tryPlain(repo, 'worktree', 'add', '-q', '--detach', path.join(repo, '..', 'control-wt')) },
  { key: 'remote.origin.uploadpack', control: (repo) => tryPlain(repo, '-c', 'protocol.file.allow=always', 'fetch', '-q', 'origin') },
];

const PLANTED_CONFIG = (marker: string) => {
  // It leaves its name and reads nothing: a program that waited on its input would hold git (and the test) up.
  const run = (name: string) => `sh -c 'echo ${name} >> ${marker}' --`;
  const program = (name: string) => `${path.dirname(marker)}/programs/${name}`;
  return {
    file: [
      '[log]\n\tshowSignature = true',
      `[gpg "ssh"]\n\tprogram = ${program('gpg.ssh.program')}\n\tallowedSignersFile = ${path.dirname(marker)}/allowed-signers`,
      `[gpg "openpgp"]\n\tprogram = ${program('gpg.openpgp.program')}`,
      `[pager]\n\tshow = "${run('pager.show')}"`,
      `[core]\n\tpager = "${run('core.pager')}"\n\tfsmonitor = "${run('core.fsmonitor')}"\n\tsshCommand = "${run('core.sshCommand')}"\n\teditor = "${run('core.editor')}"`,
      `[alias]\n\tlg = "!${run('alias.lg')}"`,
      `[credential]\n\thelper = "!${run('credential.helper')}"`,
      `[diff]\n\texternal = "${run('diff.external')}"`,
      `[diff "conv"]\n\ttextconv = "${run('diff.conv.textconv')}"`,
      `[filter "smudgy"]\n\tsmudge = "${run('filter.smudgy.smudge')}"`,
      `[remote "origin"]\n\turl = ${path.dirname(marker)}/origin\n\tuploadpack = "${run('remote.origin.uploadpack')}"`,
      // The x509 verifier comes from an included file: what an include defines is overridden too.
      `[include]\n\tpath = ${path.dirname(marker)}/included.config`,
    ].join('\n'),
    included: `[gpg "x509"]\n\tprogram = ${program('gpg.x509.program')}\n`,
    programs: ['gpg.x509.program', 'gpg.ssh.program', 'gpg.openpgp.program'],
  };
};

/** A repository with every plant: three signed commits on top, attributes naming drivers, an `origin` to fetch. */
async function plantedRepository(dir: string): Promise<{ repo: string; marker: string }> {
  const [repo, marker] = [path.join(dir, 'repo'), path.join(dir, 'MARKER')];
  await fs.mkdir(path.join(repo, 'src'), { recursive: true });
  plain(repo, 'init', '-q', '--initial-branch=main');
  await fs.writeFile(path.join(repo, 'a.txt'), 'a\n');
  await fs.writeFile(path.join(repo, 'src', 'x.js'), 'export const x = 1;\n');
  await fs.writeFile(path.join(repo, '.gitattributes'), '*.txt diff=conv\n*.js filter=smudgy\n');
  plain(repo, 'add', '-A');
  plain(repo, 'commit', '-q', '-m', 'start');
  await fs.appendFile(path.join(repo, 'a.txt'), 'more\n');
  plain(repo, 'commit', '-q', '-am', 'more');
  for (const format of ['openpgp', 'ssh', 'x509'] as const) await signedCommit(repo, format, `signed (${format})`);
  plain(dir, 'clone', '-q', '--bare', repo, path.join(dir, 'origin'));
  const planted = PLANTED_CONFIG(marker);
  await fs.mkdir(path.join(dir, 'programs'));
  for (const name of planted.programs)
    await fs.writeFile(path.join(dir, 'programs', name), `#!/bin/sh\necho ${name} >> ${marker}\ncat > /dev/null\nexit 1\n`, { mode: 0o755 });
  await fs.writeFile(path.join(dir, 'allowed-signers'), 'u@x ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKeyKeyKeyKeyKeyKeyKeyKeyKeyKeyKeyKeyKeyKeyKey\n');
  await fs.writeFile(path.join(dir, 'included.config'), planted.included);
  await fs.appendFile(path.join(repo, '.git', 'config'), `${planted.file}\n`);
  return { repo, marker };
}

const ran = async (marker: string) => (await fs.readFile(marker, 'utf8').catch(() => '')).split('\n').filter(Boolean);

describe('red team: every git config key that names a program, against every git sopworks runs', function () {
  this.timeout(120_000);
  let dir: string;
  let repo: string;
  let marker: string;

  before(async function () {
    requireSystem(this, SCRIPT);
    dir = await tempDir('sopworks-program-keys-');
    ({ repo, marker } = await plantedRepository(dir));
  });
  after(removeTempDirs);

  for (const plant of PLANTS) {
    it(`${plant.key} is live under a plain git (the control)`, async () => {
      const copy = await tempDir('sopworks-program-keys-control-');
      await fs.cp(dir, copy, { recursive: true });
      // The copy's programs, config and include still name the original's marker: the control reads that.
      await fs.rm(marker, { force: true });
      plant.control(path.join(copy, 'repo'));
      assert.ok((await ran(marker)).includes(plant.key), `a plain git ran ${plant.key}: marker holds ${JSON.stringify(await ran(marker))}`);
      await fs.rm(marker, { force: true });
    });
  }

  it('sopworks runs none of them: change, its work tree and commits, review, serve, eval, and every command line it runs', async () => {
    await fs.rm(marker, { force: true });
    const target = await checkRepository(repo, { request: 'add a --json flag', force: false });
    const warnings = await repositoryTampering(repo, target.base);
    const worktree = path.join(dir, 'out', 'change');
    await openWorktree(target, worktree);
    const workspace = await Workspace.open(worktree);
    await workspace.commit({
      files: [{ path: 'docs/changes/1/change.md', content: '# A change\n' }],
      author: { name: 'pm', email: 'pm@sopworks.local' },
      subject: 'docs: change request',
      trailers: { 'Sopworks-Message': 'msg-000001' },
    });
    await workspace.finish();
    await workspace.history();
    await workspace.trackedFiles();
    for (const where of [repo, worktree]) {
      for (const commit of await readCommits(where)) await readCommitDiff(where, commit.hash);
      await inspectProject(where);
      await looseEntries(where);
      await trackedFiles(where);
      await listFiles(where, 'HEAD');
    }
    await changedCode(worktree, () => true);
    await runFacts(worktree);
    const base = target.base;
    for (const args of [
      ['log', '--format=%(trailers:key=Sopworks-Message,valueonly,separator=%x00)'],
      ['log', '--reverse', '--format=%H%x1f%s%x1f%an <%ae>%x1f%b%x1e'],
      ['log', '-p', '--format=%H %G? %s'],
      ['show', '--no-color', ...NO_DIFF_PROGRAMS, '--patch', 'HEAD'],
      ['show', 'HEAD'],
      ['diff', ...NO_DIFF_PROGRAMS, '--stat', `${base}...HEAD`],
      ['-c', 'core.quotePath=false', 'diff', ...NO_DIFF_PROGRAMS, '--unified=0', `${base}~4`, 'HEAD'],
      ['diff', `${base}~4`, 'HEAD'],
      ['status', '--porcelain'],
      ['read-tree', 'HEAD'],
      ['symbolic-ref', 'HEAD'],
      ['rev-parse', '--verify', '--quiet', 'HEAD'],
      ['rev-parse', '--path-format=absolute', '--git-common-dir'],
      ['ls-tree', '-r', '-l', '-z', '--full-tree', 'HEAD'],
      ['cat-file', 'blob', 'HEAD:a.txt'],
      ['-c', 'core.quotePath=false', 'ls-files', '-z'],
      ['worktree', 'list', '--porcelain'],
      ['add', '--all'],
      ['commit', '--quiet', '--no-verify', '--allow-empty', '-m', 'sopworks commits'],
      ['checkout', '--quiet', '-B', 'probe', 'HEAD~1'],
      ['switch', '--quiet', 'main'],
      ['lg'],
    ])
      await git(worktree, args).catch(() => null);
    await git(dir, ['-c', 'protocol.file.allow=always', 'clone', '--quiet', '--no-hardlinks', repo, path.join(dir, 'cloned')]);
    await git(worktree, ['fetch', '-q', 'origin']).catch(() => null);
    assert.deepEqual(await ran(marker), [], 'nothing the repository names ran');
    for (const key of ['log.showsignature', 'gpg.ssh.program', 'pager.show', 'alias.lg', 'remote.origin.uploadpack'])
      assert.ok(
        warnings.some((w) => w.includes(`sets ${key} =`)),
        `change named ${key}:\n${warnings.join('\n')}`,
      );
  });

  it('refuses a repository whose configuration it cannot see whole, before any git runs there', async () => {
    const broken = path.join(await tempDir('sopworks-program-keys-refused-'), 'repo');
    await fs.cp(repo, broken, { recursive: true });
    await fs.appendFile(path.join(broken, '.git', 'config'), '[include]\n\tpath = ~nobody-here/evil.config\n');
    await assert.rejects(git(broken, ['rev-parse', 'HEAD']), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'REPOSITORY_REFUSED');
      assert.match(error.message, /include\.path = ~nobody-here\/evil\.config, a path sopworks cannot resolve/);
      return true;
    });
    await fs.writeFile(path.join(broken, '.git', 'config'), '[core\n\tbare = false\n');
    await assert.rejects(git(broken, ['rev-parse', 'HEAD']), /cannot be read by git's own parser/);
  });
});
