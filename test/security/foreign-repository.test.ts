/**
 * Red team, a repository handed to `sopworks change`: its config, hooks and attributes try to make git
 * run a program — filters (smudge, clean, process, required), textconv and diff drivers, fsmonitor,
 * hooks and a hooks path, includes whatever their condition, info/attributes and macros, worktree
 * config, a populated submodule. Each attempt is planted in a copy of one repository; a plain git on
 * another copy proves the plant runs (the marker appears), then every git `change` runs — the checks,
 * `git worktree add`, a commit through fast-import, status, a diff, the patch the viewer shows and the
 * base checked out in the work tree for its tests — must leave the marker absent and the repository's config, hooks and
 * info byte-identical; and `change` names what it found before writing anything. The mode of the
 * sandbox plays no part here: this is sopworks' own git, which runs outside it.
 * (test/security/change-attack.test.ts runs the whole `change` on such a repository.)
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import PQueue from 'p-queue';
import { readCommitDiff } from '../../src/apps/review/index.ts';
import { checkRepository, openWorktree, repositoryTampering } from '../../src/capabilities/change/index.ts';
import { Workspace } from '../../src/capabilities/repository/index.ts';
import { git, isOldGit, NO_DIFF_PROGRAMS, parseGitVersion } from '../../src/host/git/index.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const plain = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=u', '-c', 'user.email=u@x', '-c', 'protocol.file.allow=always', ...args], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, GIT_CEILING_DIRECTORIES: path.dirname(cwd) },
  }).toString();
/** A plain git that may fail (a required filter that fails makes it fail): the marker is what counts. */
const tryPlain = (cwd: string, ...args: string[]) => {
  try {
    plain(cwd, ...args);
  } catch {
    // the plant's program ran, or git refused: the marker says which
  }
};

/** A program that leaves evidence: appends to the marker, then behaves like `cat`. */
const run = (marker: string, what: string) => `sh -c 'echo ${what} >> ${marker}; cat'`;

interface Attempt {
  name: string;
  /** Plants the tampering in `repo` (commits with plain git first, then config and hooks). */
  plant(repo: string, marker: string): Promise<void>;
  /** A plain git on a copy that would run it, proving the plant is live. */
  control(repo: string): void;
  /** What `change` names before writing anything. */
  named: RegExp;
}

const setConfig = (repo: string, ...pairs: [string, string][]) => {
  for (const [key, value] of pairs) plain(repo, 'config', key, value);
};
async function commitAttributes(repo: string, text: string, file = '.gitattributes'): Promise<void> {
  await fs.writeFile(path.join(repo, file), text);
  plain(repo, 'add', '-A');
  plain(repo, 'commit', '-q', '-m', `attributes ${file}`);
}
const newWorktree = (repo: string, branch = 'control') => plain(repo, 'worktree', 'add', '-q', '-b', branch, path.join(repo, '..', `wt-${branch}`));

const ATTEMPTS: Attempt[] = [
  {
    name: 'a smudge filter named by .gitattributes (git worktree add, git archive)',
    plant: async (repo, m) => {
      await commitAttributes(repo, '* filter=evil\n');
      setConfig(repo, ['filter.evil.smudge', run(m, 'smudge')]);
    },
    control: (repo) => newWorktree(repo),
    named: /\.git\/config sets filter\.evil\.smudge/,
  },
  {
    name: 'a clean filter (git status re-reads the files)',
    plant: async (repo, m) => {
      await commitAttributes(repo, '*.txt filter=wash\n');
      setConfig(repo, ['filter.wash.clean', run(m, 'clean')]);
    },
    control: (repo) => {
      execFileSync('touch', [path.join(repo, 'a.txt')]);
      plain(repo, 'status', '--porcelain');
    },
    named: /filter\.wash\.clean/,
  },
  {
    name: 'a long-running process filter',
    plant: async (repo, m) => {
      await commitAttributes(repo, '* filter=proc\n');
      setConfig(repo, ['filter.proc.process', `sh -c 'echo process >> ${m}; exit 1'`]);
    },
    control: (repo) => tryPlain(repo, 'worktree', 'add', '-q', '-b', 'control', path.join(repo, '..', 'wt-control')),
    named: /filter\.proc\.process/,
  },
  {
    name: 'a required filter whose program fails (checkout would stop)',
    plant: async (repo, m) => {
      await commitAttributes(repo, '*.js filter=must\n');
      setConfig(repo, ['filter.must.smudge', `sh -c 'echo required >> ${m}; exit 3'`], ['filter.must.required', 'true']);
    },
    control: (repo) => tryPlain(repo, 'worktree', 'add', '-q', '-b', 'control', path.join(repo, '..', 'wt-control')),
    named: /filter\.must\.smudge/,
  },
  {
    name: 'a textconv driver (a patch, a diff stat)',
    plant: async (repo, m) => {
      await commitAttributes(repo, '*.txt diff=conv\n');
      await fs.appendFile(path.join(repo, 'a.txt'), 'more\n');
      plain(repo, 'commit', '-q', '-am', 'more');
      setConfig(repo, ['diff.conv.textconv', `sh -c 'echo textconv >> ${m}; cat "$0"'`]);
    },
    control: (repo) => plain(repo, 'log', '-p', '-1'),
    named: /diff\.conv\.textconv/,
  },
  {
    name: 'an external diff driver named by attributes, and diff.external',
    plant: async (repo, m) => {
      await commitAttributes(repo, '*.txt diff=ext\n');
      await fs.appendFile(path.join(repo, 'a.txt'), 'more\n');
      plain(repo, 'commit', '-q', '-am', 'more');
      setConfig(repo, ['diff.ext.command', `sh -c 'echo ext >> ${m}'`], ['diff.external', `sh -c 'echo external >> ${m}'`]);
    },
    control: (repo) => plain(repo, 'diff', 'HEAD~1', 'HEAD'),
    named: /diff\.ext\.command/,
  },
  {
    name: 'core.fsmonitor',
    plant: async (repo, m) => setConfig(repo, ['core.fsmonitor', `sh -c 'echo fsmonitor >> ${m}'`]),
    control: (repo) => plain(repo, 'status', '--porcelain'),
    named: /core\.fsmonitor/,
  },
  {
    name: 'hooks planted in .git/hooks (post-checkout, reference-transaction, post-commit)',
    plant: async (repo, m) => {
      for (const hook of ['post-checkout', 'reference-transaction', 'post-commit', 'post-index-change'])
        await fs.writeFile(path.join(repo, '.git', 'hooks', hook), `#!/bin/sh\necho ${hook} >> ${m}\n`, { mode: 0o755 });
    },
    control: (repo) => newWorktree(repo),
    named: /a hook was planted: \.git\/hooks\/post-checkout/,
  },
  {
    name: 'core.hooksPath to hooks committed in the work tree',
    plant: async (repo, m) => {
      await fs.mkdir(path.join(repo, 'tools', 'hooks'), { recursive: true });
      await fs.writeFile(path.join(repo, 'tools', 'hooks', 'post-checkout'), `#!/bin/sh\necho hookspath >> ${m}\n`, { mode: 0o755 });
      plain(repo, 'add', '-A');
      plain(repo, 'commit', '-q', '-m', 'hooks');
      setConfig(repo, ['core.hooksPath', 'tools/hooks']);
    },
    control: (repo) => newWorktree(repo),
    named: /core\.hookspath/,
  },
  {
    name: 'include.path to a file that defines the filter the attributes name',
    plant: async (repo, m) => {
      await commitAttributes(repo, '* filter=inc\n');
      const included = path.join(repo, '..', 'included.config');
      await fs.writeFile(included, `[filter "inc"]\n\tsmudge = "${run(m, 'include')}"\n`);
      setConfig(repo, ['include.path', included]);
    },
    control: (repo) => newWorktree(repo),
    named: /include\.path/,
  },
  {
    name: 'includeIf "onbranch:sopworks/**": a filter only on the branch change makes',
    plant: async (repo, m) => {
      await commitAttributes(repo, '* filter=branchy\n');
      const included = path.join(repo, '..', 'onbranch.config');
      await fs.writeFile(included, `[filter "branchy"]\n\tsmudge = "${run(m, 'onbranch')}"\n`);
      setConfig(repo, ['includeIf.onbranch:sopworks/**.path', included]);
    },
    control: (repo) => newWorktree(repo, 'sopworks/control'),
    named: /includeif\.onbranch:sopworks\/\*\*\.path/,
  },
  {
    name: 'includeIf "gitdir:" matching a linked work tree',
    plant: async (repo, m) => {
      await commitAttributes(repo, '* filter=dirty\n');
      const included = path.join(repo, '..', 'gitdir.config');
      await fs.writeFile(included, `[filter "dirty"]\n\tsmudge = "${run(m, 'gitdir')}"\n`);
      setConfig(repo, ['includeIf.gitdir:**/worktrees/**.path', included]);
    },
    control: (repo) => newWorktree(repo),
    named: /includeif\.gitdir/,
  },
  {
    name: 'info/attributes selecting a filter, outside the tree',
    plant: async (repo, m) => {
      await fs.mkdir(path.join(repo, '.git', 'info'), { recursive: true });
      await fs.writeFile(path.join(repo, '.git', 'info', 'attributes'), '* filter=hidden\n');
      setConfig(repo, ['filter.hidden.smudge', run(m, 'info-attributes')]);
    },
    control: (repo) => newWorktree(repo),
    named: /info\/attributes names the filter driver "hidden"/,
  },
  {
    name: 'a macro attribute that sets the filter',
    plant: async (repo, m) => {
      await commitAttributes(repo, '[attr]innocent filter=macro -text\n* innocent\n');
      setConfig(repo, ['filter.macro.smudge', run(m, 'macro')]);
    },
    control: (repo) => newWorktree(repo),
    named: /\.gitattributes names the filter driver "macro"/,
  },
  {
    name: 'worktree config (extensions.worktreeConfig, config.worktree) defining a clean filter',
    plant: async (repo, m) => {
      await commitAttributes(repo, '*.txt filter=wt\n');
      setConfig(repo, ['extensions.worktreeConfig', 'true']);
      plain(repo, 'config', '--worktree', 'filter.wt.clean', run(m, 'worktree-config'));
    },
    control: (repo) => {
      execFileSync('touch', [path.join(repo, 'a.txt')]);
      plain(repo, 'status', '--porcelain');
    },
    named: /config\.worktree sets filter\.wt\.clean/,
  },
  {
    name: 'a populated submodule whose own config defines a clean filter (status would recurse)',
    plant: async (repo, m) => {
      const sub = path.join(repo, '..', 'sub-origin');
      await fs.mkdir(sub);
      plain(sub, 'init', '-q');
      await fs.writeFile(path.join(sub, 'f.txt'), 'f\n');
      await fs.writeFile(path.join(sub, '.gitattributes'), '* filter=subby\n');
      plain(sub, 'add', '-A');
      plain(sub, 'commit', '-q', '-m', 'sub');
      plain(repo, 'submodule', 'add', '-q', sub, 'vendor/sub');
      plain(repo, 'commit', '-q', '-m', 'submodule');
      setConfig(repo, ['submodule.recurse', 'true']);
      plain(path.join(repo, 'vendor', 'sub'), 'config', 'filter.subby.clean', run(m, 'submodule'));
      execFileSync('touch', [path.join(repo, 'vendor', 'sub', 'f.txt')]);
    },
    control: (repo) => plain(repo, 'status', '--porcelain'),
    named: /submodules are not checked out/,
  },
];

/** sha256 of every file under .git but the object store, the logs and git's own bookkeeping of work trees and branches. */
async function metadata(repo: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const skip = new Set(['objects', 'logs', 'worktrees', 'refs', 'index', 'ORIG_HEAD', 'FETCH_HEAD', 'modules']);
  const walk = async (relative: string): Promise<void> => {
    for (const entry of await fs.readdir(path.join(repo, '.git', relative), { withFileTypes: true })) {
      const child = path.join(relative, entry.name);
      if (relative === '' && skip.has(entry.name)) continue;
      // sopworks adds one line to info/exclude (its run state): compared apart.
      if (child === path.join('info', 'exclude')) continue;
      if (entry.isDirectory()) await walk(child);
      else
        out[child] = createHash('sha256')
          .update(await fs.readFile(path.join(repo, '.git', child)))
          .digest('hex');
    }
  };
  await walk('');
  return out;
}

/** sha256 of every file of the work tree, .git aside: "the user's work tree is as it was" (a plain `git status` would run the plants). */
async function workTree(repo: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (relative: string): Promise<void> => {
    for (const entry of await fs.readdir(path.join(repo, relative), { withFileTypes: true })) {
      const child = path.join(relative, entry.name);
      if (entry.name === '.git') continue;
      if (entry.isDirectory()) await walk(child);
      else
        out[child] = createHash('sha256')
          .update(await fs.readFile(path.join(repo, child)))
          .digest('hex');
    }
  };
  await walk('');
  return out;
}

/** Every git `change` runs on a repository and its work tree, in order. */
async function changeTouches(repo: string, worktree: string, scratch: string): Promise<string[]> {
  const target = await checkRepository(repo, { request: 'add a --json flag', force: false });
  const warnings = await repositoryTampering(repo, target.base);
  await openWorktree(target, worktree);
  const workspace = await Workspace.open(worktree);
  await workspace.commit({
    files: [{ path: 'docs/changes/1-json/change.md', content: '# A change\n' }],
    author: { name: 'pm', email: 'pm@sopworks.local' },
    subject: 'docs: change request',
    trailers: { 'Sopworks-Message': 'msg-000001' },
  });
  await workspace.finish();
  await git(worktree, ['status', '--porcelain']);
  await git(worktree, ['diff', ...NO_DIFF_PROGRAMS, '--stat', `${target.base}...HEAD`]);
  const head = (await git(worktree, ['rev-parse', 'HEAD'])).stdout.trim();
  await readCommitDiff(worktree, head);
  await readCommitDiff(worktree, target.base);
  // The base's tests run in the work tree itself (base-tests.ts): its files are there, checked out hardened.
  await fs.cp(path.join(worktree, 'a.txt'), path.join(scratch, 'a.txt')).catch(() => {});
  return warnings;
}

interface Result {
  /** The marker after a plain git on the copy: the plant is live. */
  live: boolean;
  /** The marker after every git `change` runs: null when nothing ran. */
  ran: string | null;
  metadata: [Record<string, string>, Record<string, string>];
  files: [Record<string, string>, Record<string, string>];
  warnings: string[];
  unpacked: boolean;
}

async function attack(template: string, attempt: Attempt): Promise<Result> {
  const dir = await tempDir('sopworks-foreign-attempt-');
  const [repo, control] = [path.join(dir, 'repo'), path.join(dir, 'control', 'repo')];
  const marker = path.join(dir, 'MARKER');
  await fs.cp(template, repo, { recursive: true });
  await attempt.plant(repo, marker);
  await fs.rm(marker, { force: true });
  await fs.cp(repo, control, { recursive: true });
  attempt.control(control);
  const live = (await fs.stat(marker).catch(() => null)) !== null;
  await fs.rm(marker, { force: true });
  const [metadataBefore, filesBefore] = [await metadata(repo), await workTree(repo)];
  const scratch = path.join(dir, 'scratch');
  await fs.mkdir(scratch);
  const warnings = await changeTouches(repo, path.join(dir, 'out', 'change'), scratch);
  return {
    live,
    ran: await fs.readFile(marker, 'utf8').catch(() => null),
    metadata: [await metadata(repo), metadataBefore],
    files: [await workTree(repo), filesBefore],
    warnings,
    unpacked: (await fs.stat(path.join(scratch, 'a.txt')).catch(() => null)) !== null,
  };
}

describe('red team: a foreign repository handed to `change` runs nothing', function () {
  this.timeout(120_000);
  let template: string;
  const results = new Map<string, Result>();

  // The attempts are independent, each in its own folders: they run side by side, a few at a time.
  before(async () => {
    template = path.join(await tempDir('sopworks-foreign-'), 'template');
    await fs.mkdir(path.join(template, 'src'), { recursive: true });
    await fs.writeFile(path.join(template, 'a.txt'), 'a\n');
    await fs.writeFile(path.join(template, 'src', 'x.js'), 'export const x = 1;\n');
    plain(template, 'init', '-q', '--initial-branch=main');
    plain(template, 'add', '-A');
    plain(template, 'commit', '-q', '-m', 'start');
    const queue = new PQueue({ concurrency: 4 });
    await Promise.all(ATTEMPTS.map((attempt) => queue.add(async () => results.set(attempt.name, await attack(template, attempt)))));
  });
  after(removeTempDirs);

  for (const attempt of ATTEMPTS) {
    it(attempt.name, () => {
      const result = results.get(attempt.name)!;
      assert.ok(result.live, 'the plant is live: a plain git on a copy ran it');
      assert.equal(result.ran, null, 'nothing the repository names ran');
      assert.deepEqual(result.metadata[0], result.metadata[1], "the repository's config, hooks and info are byte-identical");
      assert.deepEqual(result.files[0], result.files[1], "the user's work tree is as it was");
      assert.ok(
        result.warnings.some((w) => attempt.named.test(w)),
        `change names it before writing anything:\n${result.warnings.join('\n')}`,
      );
      assert.ok(result.unpacked, 'the base was checked out for its tests all the same');
    });
  }

  it('refuses a repository whose .git/config is a link, before anything is written', async () => {
    const dir = await tempDir('sopworks-foreign-attempt-');
    const repo = path.join(dir, 'repo');
    await fs.cp(template, repo, { recursive: true });
    await fs.rename(path.join(repo, '.git', 'config'), path.join(dir, 'elsewhere.config'));
    await fs.symlink(path.join(dir, 'elsewhere.config'), path.join(repo, '.git', 'config'));
    const target = await checkRepository(repo, { request: 'x', force: false });
    await assert.rejects(repositoryTampering(repo, target.base), /Refused to change .*\.git\/config is a symbolic link/);
  });

  it('needs a git that reads GIT_CONFIG_COUNT: 2.31 or newer, whatever the vendor suffix', () => {
    assert.deepEqual(parseGitVersion('git version 2.39.5'), [2, 39]);
    assert.deepEqual(parseGitVersion('git version 2.30.9 (Apple Git-143)'), [2, 30]);
    assert.ok(isOldGit([2, 30]) && isOldGit([1, 9]));
    assert.ok(!isOldGit([2, 31]) && !isOldGit([3, 0]));
    assert.ok(!isOldGit(parseGitVersion(execFileSync('git', ['--version']).toString())!), 'the git here is new enough');
  });
});
