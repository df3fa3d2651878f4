/**
 * The red team against a change run's user repository: the work tree a change run makes is a linked
 * work tree whose `.git` file points into the user's own git dir (config, hooks, refs, objects,
 * `worktrees/<name>`). Generated code that knows that path attacks it from the test round, under each
 * mode, straight through the sandbox API on a real `git worktree add` layout. Asserted on the host
 * afterwards: the user's git dir byte-identical (a planted pack moved out of git's sight), no new hook,
 * and plain git in the user's repository and the work tree runs nothing planted (no marker). In the
 * weaker modes each write is also named as an `integrity` violation; under bubblewrap the git dir is
 * not even visible.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { type ModeSetting, QUARANTINE, runSandboxed, type SandboxLimits, type SandboxMode, type SandboxOutcome } from '../../src/host/sandbox/index.ts';
import { BUBBLEWRAP, requireSystem } from '../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

/** More entries than the guard ever listed (20 000): a listing that stopped there would miss what follows. */
const FLOOD = 20_050;

// The limits are not what this file tests: they are loose enough for the flood to finish on a slow machine
// (a fresh-machine run here saw `xargs touch` stopped by SIGXCPU at 10 s, 14,118 files in, before it planted its hook).
const LIMITS: SandboxLimits = { wallSeconds: 60, cpuSeconds: 60, memoryMb: 256, maxProcesses: 64, outputKb: 64, fileMb: 4, diskMb: 16, maxFiles: 300 };

/** The attack starts as node (so the Node fallback applies) and runs its writes through sh, which it does not confine. */
const MODES: { mode: SandboxMode; setting: ModeSetting; allowUnsandboxed: boolean; argv: string[] }[] = [
  { mode: 'bubblewrap', setting: 'auto', allowUnsandboxed: false, argv: ['node', 'attack.cjs'] },
  { mode: 'node-permissions', setting: 'fallback', allowUnsandboxed: false, argv: ['node', 'attack.cjs'] },
  { mode: 'unsandboxed', setting: 'fallback', allowUnsandboxed: true, argv: ['sh', '-c', 'exec node attack.cjs'] },
];

/**
 * Each attempt: a shell command (sh is unconfined by Node's permission model; so is everything
 * unsandboxed) given G = the user's git dir, W = the work tree's git dir in it, M = a marker path, T = a
 * folder of its own outside, and
 * what the sandbox must name when it reaches the host.
 */
const ATTEMPTS: { name: string; sh: string; named: RegExp }[] = [
  { name: 'core.fsmonitor in config', sh: 'printf "[core]\\n\\tfsmonitor = \\"touch $M; false\\"\\n" >> "$G/config"', named: /: config was changed/ },
  {
    name: 'a new hook',
    sh: 'printf "#!/bin/sh\\ntouch $M\\n" > "$G/hooks/post-commit" && chmod +x "$G/hooks/post-commit"',
    named: /hooks\/post-commit was created/,
  },
  {
    name: 'a hook as a link',
    sh: 'printf "#!/bin/sh\\ntouch $M\\n" > $T/evil-hook && chmod +x $T/evil-hook && ln -s $T/evil-hook "$G/hooks/pre-commit"',
    named: /hooks\/pre-commit was created/,
  },
  { name: 'a filter in info/attributes', sh: 'mkdir -p "$G/info" && printf "* filter=evil\\n" > "$G/info/attributes"', named: /info\/attributes was created/ },
  {
    name: "the work tree's commondir as a link",
    sh: 'mkdir -p $T/evil-git && cp -r "$G/refs" "$G/HEAD" $T/evil-git/ && printf "[core]\\n\\tfsmonitor = \\"touch $M\\"\\n" > $T/evil-git/config && rm "$W/commondir" && ln -s $T/evil-git "$W/commondir"',
    named: /worktrees\/work\/commondir was replaced by a link/,
  },
  { name: 'a branch moved', sh: 'echo 0000000000000000000000000000000000000001 > "$G/refs/heads/main"', named: /refs\/heads\/main was changed/ },
  { name: 'a branch planted', sh: 'cp "$G/refs/heads/main" "$G/refs/heads/evil"', named: /refs\/heads\/evil was created/ },
  { name: 'packed-refs planted', sh: 'echo "0000000000000000000000000000000000000002 refs/tags/v9" > "$G/packed-refs"', named: /packed-refs was created/ },
  { name: 'HEAD moved', sh: 'echo "ref: refs/heads/evil" > "$G/HEAD"', named: /: HEAD was changed/ },
  {
    name: "the work tree's config.worktree",
    sh: 'printf "[core]\\n\\tfsmonitor = \\"touch $M\\"\\n" > "$W/config.worktree"',
    named: /config\.worktree was created/,
  },
  { name: "the work tree's gitdir", sh: 'echo $T/elsewhere/.git > "$W/gitdir"', named: /\/gitdir was changed/ },
  { name: 'objects/info/alternates', sh: 'echo $T > "$G/objects/info/alternates"', named: /objects\/info\/alternates was created/ },
  {
    name: 'a pack planted',
    sh: 'echo junk > "$G/objects/pack/pack-0123.pack"',
    named: /objects\/pack\/pack-0123\.pack was planted \(moved to sopworks-quarantine/,
  },
];

/** sha256 of every file (and link target) under a folder, by relative path, but `skip`. */
async function fingerprint(dir: string, skip: readonly string[] = []): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (relative: string): Promise<void> => {
    for (const entry of await fs.readdir(path.join(dir, relative), { withFileTypes: true }).catch(() => [])) {
      const child = path.join(relative, entry.name);
      if (skip.includes(child)) continue;
      const full = path.join(dir, child);
      const stat = await fs.lstat(full);
      if (stat.isSymbolicLink()) out[child] = `link:${await fs.readlink(full)}`;
      else if (stat.isDirectory()) {
        out[child] = 'dir';
        await walk(child);
      } else
        out[child] = `${stat.mode & 0o777}:${createHash('sha256')
          .update(await fs.readFile(full))
          .digest('hex')}`;
    }
  };
  await walk('');
  return out;
}

const exists = (file: string) =>
  fs.lstat(file).then(
    () => true,
    () => false,
  );

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', ...args], { cwd, stdio: 'pipe' }).toString();

/** A user's repository with one commit and a change run's linked work tree beside it. */
async function changeRunLayout(base: string): Promise<{ repository: string; gitDir: string; workTree: string; workGitDir: string }> {
  const repository = path.join(base, 'user-repository');
  await fs.mkdir(path.join(repository, 'src'), { recursive: true });
  await fs.writeFile(path.join(repository, 'src', 'app.js'), 'export const answer = 42;\n');
  git(repository, 'init', '-q');
  git(repository, 'add', '-A');
  git(repository, 'commit', '-q', '-m', 'start');
  const workTree = path.join(base, 'run', 'work');
  git(repository, 'worktree', 'add', '-q', '-b', 'sopworks/change', workTree);
  const gitDir = await fs.realpath(path.join(repository, '.git'));
  return { repository, gitDir, workTree, workGitDir: path.join(gitDir, 'worktrees', 'work') };
}

const describeOutcome = (o: SandboxOutcome) =>
  JSON.stringify({ mode: o.mode, exitCode: o.exitCode, violations: o.violations, gaps: o.gaps, output: o.output.slice(-2000) }, null, 2);

for (const modeCase of MODES) {
  describe(`the user's git dir of a change run, attacked under ${modeCase.mode}`, function () {
    this.timeout(60_000);
    const weaker = modeCase.mode !== 'bubblewrap';
    let layout: Awaited<ReturnType<typeof changeRunLayout>>;
    let marker: string;

    const run = async (script: string): Promise<SandboxOutcome> => {
      await fs.writeFile(path.join(layout.workTree, 'attack.sh'), script);
      const launcher = "process.stdout.write(require('node:child_process').execFileSync('sh', ['attack.sh']));\n";
      await fs.writeFile(path.join(layout.workTree, 'attack.cjs'), launcher);
      const outcome = await runSandboxed({
        argv: modeCase.argv,
        projectDir: layout.workTree,
        limits: LIMITS,
        setting: modeCase.setting,
        allowUnsandboxed: modeCase.allowUnsandboxed,
      });
      assert.equal(outcome.mode, modeCase.mode, describeOutcome(outcome));
      return outcome;
    };

    before(async function () {
      if (modeCase.mode === 'bubblewrap') requireSystem(this, BUBBLEWRAP);
      const base = await tempDir(`sopworks-user-git-${modeCase.mode}-`);
      layout = await changeRunLayout(base);
      marker = path.join(base, 'PWNED');
    });

    after(() => removeTempDirs());

    it('a command that leaves the git dir alone is not reported', async () => {
      const before = await fingerprint(layout.gitDir);
      const outcome = await run('cat src/app.js\n');
      assert.deepEqual(outcome.violations, [], describeOutcome(outcome));
      assert.deepEqual(await fingerprint(layout.gitDir), before);
    });

    it(`${ATTEMPTS.length} attempts on config, hooks, attributes, refs, HEAD, worktrees/<name> and objects leave it byte-identical`, async () => {
      const before = await fingerprint(layout.gitDir);
      const hooksBefore = (await fs.readdir(path.join(layout.gitDir, 'hooks'))).sort();
      const script = [
        `G=${JSON.stringify(layout.gitDir)}; W=${JSON.stringify(layout.workGitDir)}; M=${JSON.stringify(marker)}; T=${JSON.stringify(path.dirname(marker))}/outside; mkdir -p "$T"`,
        'test -e "$G/config" && echo VISIBLE',
        ...ATTEMPTS.map((a, i) => `if ( ${a.sh} ) 2>/dev/null; then echo "DONE ${i}"; else echo "BLOCKED ${i}"; fi`),
      ].join('\n');
      const outcome = await run(`${script}\n`);
      const integrity = outcome.violations.filter((v) => v.kind === 'integrity').map((v) => v.detail);
      if (weaker) {
        // Each write reached the host, and each is named and put back.
        for (const [i, a] of ATTEMPTS.entries()) {
          assert.match(outcome.output, new RegExp(`DONE ${i}\\b`), `${a.name}: the attack did not even run:\n${describeOutcome(outcome)}`);
          assert.ok(
            integrity.some((d) => d.startsWith("the repository's git dir") && a.named.test(d)),
            `${a.name}: not named:\n${describeOutcome(outcome)}`,
          );
        }
      } else {
        // Not visible from the sandbox (what an attempt wrote went to the sandbox's own /tmp): nothing to put back.
        assert.doesNotMatch(outcome.output, /VISIBLE/, describeOutcome(outcome));
        assert.deepEqual(integrity, [], describeOutcome(outcome));
      }
      // The host afterwards, before git itself touches anything.
      assert.deepEqual(await fingerprint(layout.gitDir, [QUARANTINE]), before, `the git dir changed:\n${describeOutcome(outcome)}`);
      assert.deepEqual((await fs.readdir(path.join(layout.gitDir, 'hooks'))).sort(), hooksBefore);
      // As the user would: plain git in the repository and in the work tree, a commit included.
      for (const cwd of [layout.repository, layout.workTree]) {
        for (const args of [['status'], ['log', '-1'], ['st'], ['commit', '-q', '--allow-empty', '-m', 'after']]) {
          spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, stdio: 'ignore', timeout: 10_000 });
        }
      }
      assert.equal(await exists(marker), false, `a program planted in the git dir ran on the host:\n${describeOutcome(outcome)}`);
      assert.match(git(layout.repository, 'rev-parse', '--abbrev-ref', 'HEAD'), /^main\n$/);
      assert.equal(git(layout.repository, 'branch', '--list', 'evil'), '');
    });

    it(`a flood of ${FLOOD.toLocaleString('en')} files in hooks/ does not hide a hook planted after it`, async () => {
      const before = await fingerprint(layout.gitDir, [QUARANTINE]);
      const script = [
        `G=${JSON.stringify(layout.gitDir)}; M=${JSON.stringify(marker)}`,
        // Named so that the hook sorts after every one of them; xargs makes them in a few processes.
        `cd "$G/hooks" && seq -f 'f%05.0f' 1 ${FLOOD} | xargs touch && printf '#!/bin/sh\\ntouch %s\\n' "$M" > pre-commit && chmod +x pre-commit && echo PLANTED`,
      ].join('\n');
      const outcome = await run(`${script}\n`);
      const integrity = outcome.violations.filter((v) => v.kind === 'integrity').map((v) => v.detail);
      if (weaker) {
        assert.match(outcome.output, /PLANTED/, describeOutcome(outcome));
        // Named, with the flood counted rather than listed line by line.
        assert.ok(
          integrity.some((d) => /: hooks: 20,051 entries were created \(pre-commit, .*\) \(restored\)$/.test(d)),
          describeOutcome(outcome),
        );
        assert.ok(integrity.length <= 20, `the report lists the flood line by line (${integrity.length} lines)`);
      } else assert.deepEqual(integrity, [], describeOutcome(outcome));
      assert.equal(await exists(path.join(layout.gitDir, 'hooks', 'pre-commit')), false, `the planted hook is still there:\n${describeOutcome(outcome)}`);
      assert.deepEqual(await fingerprint(layout.gitDir, [QUARANTINE]), before, `the git dir changed:\n${describeOutcome(outcome)}`);
      spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'after the flood'], {
        cwd: layout.repository,
        stdio: 'ignore',
        timeout: 10_000,
      });
      assert.equal(await exists(marker), false, `the planted hook ran on the host:\n${describeOutcome(outcome)}`);
    });
  });
}
