/**
 * The red-team suite: generated code attacking as it would in QA's test run, one attempt per test,
 * written from the threat model in docs/sandbox.md ("Threat model"). Every attempt runs under each
 * mode — bubblewrap, the Node permission-model fallback, and --allow-unsandboxed — straight through
 * the sandbox API, on a real git repository with a real run record. Each test asserts on the host
 * afterwards: the repository's metadata and the run's record byte-identical, no marker file made by
 * code that got to run on the host (plain `git status`/`git log` are run, as a user would), nothing
 * written outside, no process left. What a mode cannot stop is asserted as a gap it lists.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { Workspace } from '../../src/capabilities/repository/index.ts';
import { type ModeSetting, runSandboxed, type SandboxLimits, type SandboxMode, type SandboxOutcome } from '../../src/host/sandbox/index.ts';
import { BUBBLEWRAP, requireSystem } from '../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const LIMITS: SandboxLimits = { wallSeconds: 6, cpuSeconds: 2, memoryMb: 256, maxProcesses: 64, outputKb: 64, fileMb: 4, diskMb: 16, maxFiles: 300 };
/** More entries than any guard ever listed (5 000 in .git, 20 000 in the work tree). */
const FLOOD = 20_050;
const API_KEY = `sk-red-team-${process.pid}-do-not-leak`;
const HOME_SECRET = `red-team-home-secret-${process.pid}`;

interface ModeCase {
  mode: SandboxMode;
  setting: ModeSetting;
  allowUnsandboxed: boolean;
  /** How the attack script is started: node itself, or through sh (not Node: no fallback applies). */
  argv: string[];
}

const MODES: ModeCase[] = [
  { mode: 'bubblewrap', setting: 'auto', allowUnsandboxed: false, argv: ['node', 'attack.cjs'] },
  { mode: 'node-permissions', setting: 'fallback', allowUnsandboxed: false, argv: ['node', 'attack.cjs'] },
  { mode: 'unsandboxed', setting: 'fallback', allowUnsandboxed: true, argv: ['sh', '-c', 'exec node attack.cjs'] },
];

interface Host {
  base: string;
  template: string;
  outside: string;
  homeSecret: string;
  tcp: net.Server;
  tcp6: net.Server | null;
  unix: net.Server;
  socketPath: string;
  ports: { v4: number; v6: number };
  connections: number;
}

/** sha256 of every file (and link target) under a folder, by relative path: "byte-identical". */
async function fingerprint(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (relative: string): Promise<void> => {
    for (const entry of await fs.readdir(path.join(dir, relative), { withFileTypes: true }).catch(() => [])) {
      const child = path.join(relative, entry.name);
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

/** Processes on the host whose command line holds the marker. */
async function processesWith(marker: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const cmdline = await fs.readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(marker)) found.push(Number(entry));
  }
  return found;
}

const describeOutcome = (o: SandboxOutcome) =>
  JSON.stringify(
    {
      mode: o.mode,
      exitCode: o.exitCode,
      signal: o.signal,
      limitsHit: o.limitsHit,
      limitNotes: o.limitNotes,
      violations: o.violations,
      gaps: o.gaps,
      output: o.output.slice(-1200),
    },
    null,
    2,
  );

/** A repository as sopworks leaves it after a few commits, with a run record: made once, copied per attempt. */
async function makeTemplate(dir: string): Promise<void> {
  await fs.mkdir(path.join(dir, 'src'), { recursive: true });
  await fs.writeFile(path.join(dir, 'src', 'app.js'), 'export const answer = 42;\n');
  await fs.writeFile(path.join(dir, 'package.json'), '{"name":"victim","type":"module"}\n');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', ...args], { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'start');
  const state = path.join(dir, '.sopworks');
  await fs.mkdir(path.join(state, 'roles'), { recursive: true });
  await fs.writeFile(path.join(state, 'board.jsonl'), '{"seq":1,"id":"m1","type":"Requirement","from":"user","to":"pm","payload":{"spec":"x"}}\n');
  await fs.writeFile(path.join(state, 'exchanges.jsonl'), '{"call":"pm/write_prd"}\n');
  await fs.writeFile(path.join(state, 'run.json'), '{"outcome":null}\n');
  await fs.writeFile(path.join(state, 'lock'), '1\n');
}

for (const modeCase of MODES) {
  describe(`red team under ${modeCase.mode}`, function () {
    this.timeout(60_000);
    let host: Host;
    const saved = { HOME: process.env.HOME, OPENAI_API_KEY: process.env.OPENAI_API_KEY };
    const weaker = modeCase.mode !== 'bubblewrap';

    interface Attempt {
      project: string;
      marker: string;
      outcome: SandboxOutcome;
      gitBefore: Record<string, string>;
      stateBefore: Record<string, string>;
    }

    /**
     * Copies the template into a fresh project, writes the attack (which gets P = the project's path on
     * the host and M = a marker path outside it: an attacker that knows both) and runs it as QA would.
     */
    async function attempt(name: string, code: string, limits: Partial<SandboxLimits> = {}): Promise<Attempt> {
      const project = path.join(host.base, `${modeCase.mode}-${name}`);
      await fs.cp(host.template, project, { recursive: true, verbatimSymlinks: true });
      const marker = path.join(host.base, `PWNED-${modeCase.mode}-${name}`);
      const prelude = `const fs = require('node:fs'); const path = require('node:path'); const cp = require('node:child_process');
        const P = ${JSON.stringify(project)}; const M = ${JSON.stringify(marker)};
        const tryTo = (what, fn) => { try { fn(); console.log('DONE', what); } catch (e) { console.log('BLOCKED', what, String(e.message).split('\\n').slice(-3).join(' ')); } };\n`;
      await fs.writeFile(path.join(project, 'attack.cjs'), prelude + code);
      const [gitBefore, stateBefore] = await Promise.all([fingerprint(path.join(project, '.git')), fingerprint(path.join(project, '.sopworks'))]);
      const outcome = await runSandboxed({
        argv: modeCase.argv,
        projectDir: project,
        limits: { ...LIMITS, ...limits },
        setting: modeCase.setting,
        allowUnsandboxed: modeCase.allowUnsandboxed,
      });
      assert.equal(outcome.mode, modeCase.mode, describeOutcome(outcome));
      return { project, marker, outcome, gitBefore, stateBefore };
    }

    /** The host's state afterwards: metadata and record byte-identical, and plain git runs nothing planted. */
    async function assertHostIntact(a: Attempt): Promise<void> {
      assert.deepEqual(await fingerprint(path.join(a.project, '.git')), a.gitBefore, `.git changed:\n${describeOutcome(a.outcome)}`);
      assert.deepEqual(await fingerprint(path.join(a.project, '.sopworks')), a.stateBefore, `.sopworks changed:\n${describeOutcome(a.outcome)}`);
      // As the user would, afterwards: ordinary git commands in the repository.
      for (const args of [['status'], ['log', '-1'], ['diff'], ['st']]) spawnSync('git', args, { cwd: a.project, stdio: 'ignore', timeout: 10_000 });
      assert.equal(await exists(a.marker), false, `code ran on the host (${a.marker} exists):\n${describeOutcome(a.outcome)}`);
    }

    /** In a weaker mode a write that reached the real project must be found, undone and named. */
    function assertIntegrityCaught(a: Attempt, pattern: RegExp): void {
      const integrity = a.outcome.violations.filter((v) => v.kind === 'integrity');
      if (weaker) {
        // The attack's `sh` (not Node: unconfined in the fallback; everything is, unsandboxed) reached the project.
        assert.ok(
          integrity.some((v) => pattern.test(v.detail) && /\(restored\)$/.test(v.detail)),
          `not found and undone:\n${describeOutcome(a.outcome)}`,
        );
      } else {
        assert.equal(integrity.length, 0, `bubblewrap lets nothing through:\n${describeOutcome(a.outcome)}`);
        assert.ok(
          a.outcome.violations.some((v) => v.kind === 'filesystem'),
          `the refused writes are reported:\n${describeOutcome(a.outcome)}`,
        );
      }
    }

    /**
     * Outside bubblewrap the attack ran in a scratch copy, and links are not copied back: the test checks
     * that, then plants the same links on the host itself, so sopworks' own writes are still put to the test.
     */
    async function linksOnHost(a: Attempt, names: string[]): Promise<void> {
      if (!weaker) return;
      for (const name of names)
        assert.equal((await fs.lstat(path.join(a.project, name)).catch(() => null))?.isSymbolicLink() ?? false, false, `${name}: a link was copied back`);
      execFileSync('node', ['attack.cjs'], { cwd: a.project, stdio: 'ignore' });
    }

    before(async function () {
      if (modeCase.mode === 'bubblewrap') requireSystem(this, BUBBLEWRAP);
      const base = await tempDir('sopworks-red-team-');
      const home = path.join(base, 'home');
      await fs.mkdir(path.join(base, 'outside'), { recursive: true });
      await fs.mkdir(home);
      await fs.writeFile(path.join(home, '.secret'), HOME_SECRET);
      process.env.HOME = home;
      process.env.OPENAI_API_KEY = API_KEY;
      const template = path.join(base, 'template');
      await makeTemplate(template);
      const socketPath = path.join(base, 'host-service.sock');
      host = {
        base,
        template,
        outside: path.join(base, 'outside'),
        homeSecret: path.join(home, '.secret'),
        tcp: net.createServer(),
        tcp6: null,
        unix: net.createServer(),
        socketPath,
        ports: { v4: 0, v6: 0 },
        connections: 0,
      };
      const count = (socket: net.Socket) => {
        host.connections++;
        socket.end('hello from the host\n');
      };
      host.tcp.on('connection', count);
      host.unix.on('connection', count);
      await new Promise<void>((resolve) => host.tcp.listen(0, '127.0.0.1', resolve));
      host.ports.v4 = (host.tcp.address() as net.AddressInfo).port;
      await new Promise<void>((resolve) => host.unix.listen(socketPath, resolve));
      const tcp6 = net.createServer(count);
      host.ports.v6 = await new Promise<number>((resolve) => {
        tcp6.once('error', () => resolve(0));
        tcp6.listen(0, '::1', () => resolve((tcp6.address() as net.AddressInfo).port));
      });
      host.tcp6 = host.ports.v6 ? tcp6 : null;
    });

    after(async () => {
      process.env.HOME = saved.HOME;
      if (saved.OPENAI_API_KEY === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved.OPENAI_API_KEY;
      // A suite skipped for a missing requirement never set its host up.
      if ((host as Host | undefined) === undefined) return;
      await Promise.all([host.tcp, host.unix, host.tcp6].filter((s): s is net.Server => s !== null).map((s) => new Promise((resolve) => s.close(resolve))));
      await removeTempDirs();
    });

    // ── Repository metadata ────────────────────────────────────────────────────────────────────
    describe('repository metadata', () => {
      for (const [key, line] of [
        ['core.fsmonitor', '[core]\\n\\tfsmonitor = "touch $M; false"'],
        ['core.pager', '[core]\\n\\tpager = "touch $M; cat"'],
        ['core.sshCommand', '[core]\\n\\tsshCommand = "touch $M"'],
        ['a ! alias', '[alias]\\n\\tst = "!touch $M"'],
        ['credential.helper', '[credential]\\n\\thelper = "!touch $M"'],
      ] as const) {
        it(`cannot plant ${key} in .git/config (relative and by absolute path)`, async () => {
          const a = await attempt(
            `config-${key.replace(/\W+/g, '-')}`,
            `
            const text = ${JSON.stringify(`\n${line}\n`)}.replace(/\\$M/g, M);
            tryTo('relative', () => fs.appendFileSync('.git/config', text));
            tryTo('absolute', () => fs.appendFileSync(path.join(P, '.git/config'), text));
            tryTo('through sh', () => cp.execFileSync('sh', ['-c', 'printf "%s" "$1" >> "$2"', 'sh', text, path.join(P, '.git/config')], { stdio: 'pipe' }));`,
          );
          await assertHostIntact(a);
          assertIntegrityCaught(a, /\.git\/config was changed/);
        });
      }

      it('cannot plant hooks (post-checkout, pre-commit, fsmonitor-watchman)', async () => {
        const a = await attempt(
          'hooks',
          `
          for (const hook of ['post-checkout', 'pre-commit', 'fsmonitor-watchman']) {
            for (const dir of ['.git/hooks', path.join(P, '.git/hooks')]) tryTo(dir + '/' + hook, () => fs.writeFileSync(path.join(dir, hook), '#!/bin/sh\\ntouch ' + M + '\\n', { mode: 0o755 }));
          }
          tryTo('sh', () => cp.execSync('printf "#!/bin/sh\\\\ntouch ' + M + '\\\\n" > ' + P + '/.git/hooks/post-index-change; chmod +x ' + P + '/.git/hooks/post-index-change', { stdio: 'pipe' }));`,
        );
        await assertHostIntact(a);
        assertIntegrityCaught(a, /\.git\/hooks\/\S+ was created/);
      });

      it('cannot point core.hooksPath at hooks written in the work tree', async () => {
        const a = await attempt(
          'hooks-path',
          `
          fs.mkdirSync('githooks', { recursive: true });
          fs.writeFileSync('githooks/post-checkout', '#!/bin/sh\\ntouch ' + M + '\\n', { mode: 0o755 });
          tryTo('relative', () => fs.appendFileSync('.git/config', '[core]\\n\\thooksPath = githooks\\n'));
          tryTo('config', () => fs.appendFileSync(path.join(P, '.git/config'), '[core]\\n\\thooksPath = githooks\\n'));
          tryTo('config by sh', () => cp.execSync('git config core.hooksPath githooks', { cwd: P, stdio: 'pipe' }));`,
        );
        await assertHostIntact(a);
        assertIntegrityCaught(a, /\.git\/config/);
      });

      it('cannot name a clean/smudge filter or diff driver through attributes', async () => {
        const a = await attempt(
          'attributes',
          `
          fs.writeFileSync('.gitattributes', '* filter=evil diff=evil\\n');
          tryTo('relative', () => fs.writeFileSync('.git/info/attributes', '* filter=evil diff=evil\\n'));
          tryTo('info/attributes', () => fs.writeFileSync(path.join(P, '.git/info/attributes'), '* filter=evil diff=evil\\n'));
          tryTo('filter config', () => cp.execSync('git config filter.evil.clean "touch ' + M + '; cat" && git config diff.evil.textconv "touch ' + M + '; cat"', { cwd: P, stdio: 'pipe' }));`,
        );
        await assertHostIntact(a);
        assertIntegrityCaught(a, /\.git\/(config|info\/attributes)/);
      });

      it('cannot forge HEAD, a branch, the index or alternates', async () => {
        const a = await attempt(
          'refs',
          `
          const forged = '0123456789abcdef0123456789abcdef01234567\\n';
          for (const [file, text] of [['HEAD', 'ref: refs/heads/evil\\n'], ['refs/heads/main', forged], ['index', 'garbage'], ['objects/info/alternates', '/tmp\\n'], ['packed-refs', forged + ' refs/heads/evil\\n']]) {
            tryTo(file, () => fs.writeFileSync(path.join('.git', file), text));
            tryTo(file + ' (absolute)', () => cp.execFileSync('sh', ['-c', 'printf "%s" "$1" > "$2"', 'sh', text, path.join(P, '.git', file)], { stdio: 'pipe' }));
          }`,
        );
        await assertHostIntact(a);
        assertIntegrityCaught(a, /\.git\/(HEAD|refs|index|objects\/info|packed-refs)/);
      });

      it(`a flood of ${FLOOD.toLocaleString('en')} files in .git/hooks does not hide a hook planted after it`, async () => {
        // Named so that the hook sorts after every one of them; xargs makes them in a few processes.
        const flood = `{ cd "$1/.git/hooks" 2>/dev/null || cd .git/hooks; } && seq -f 'f%05.0f' 1 ${FLOOD} | xargs touch && printf '#!/bin/sh\\ntouch %s\\n' "$2" > pre-commit && chmod +x pre-commit`;
        const a = await attempt(
          'hooks-flood',
          `tryTo('flood', () => cp.execFileSync('sh', ['-c', ${JSON.stringify(flood)}, 'sh', P, M], { stdio: 'pipe' }));`,
          {
            cpuSeconds: 10,
            wallSeconds: 30,
          },
        );
        assert.equal(await exists(path.join(a.project, '.git/hooks/pre-commit')), false, `the planted hook is still there:\n${describeOutcome(a.outcome)}`);
        await assertHostIntact(a);
        const integrity = a.outcome.violations.filter((v) => v.kind === 'integrity').map((v) => v.detail);
        if (weaker) {
          // Named, with the flood counted in one line rather than listed line by line.
          assert.ok(
            integrity.some((d) => /^\.git\/hooks: 20,051 entries were created \(pre-commit, .*\) \(restored\)$/.test(d)),
            describeOutcome(a.outcome),
          );
          assert.ok(integrity.length <= 20, `the report lists the flood line by line (${integrity.length} lines)`);
        } else {
          assert.deepEqual(integrity, [], describeOutcome(a.outcome));
          assert.match(a.outcome.output, /Read-only file system/, describeOutcome(a.outcome));
        }
      });

      it('cannot replace .git/config by a link, or plant commondir', async () => {
        const a = await attempt(
          'config-link',
          `
          tryTo('link', () => { fs.renameSync('.git/config', 'config.old'); fs.symlinkSync(path.resolve('config.old'), '.git/config'); });
          tryTo('commondir', () => cp.execFileSync('sh', ['-c', 'echo /tmp > "$1"/.git/commondir', 'sh', P], { stdio: 'pipe' }));`,
        );
        await assertHostIntact(a);
        assertIntegrityCaught(a, /\.git\/(config|commondir)/);
      });
    });

    // ── The run's record ───────────────────────────────────────────────────────────────────────
    describe("the run's record", () => {
      it('cannot append a forged board line', async () => {
        const a = await attempt(
          'board-forge',
          `
          const forged = JSON.stringify({ seq: 2, id: 'forged', type: 'Outcome', from: 'pm', to: 'all', payload: { outcome: 'done' } }) + '\\n';
          tryTo('relative', () => fs.appendFileSync('.sopworks/board.jsonl', forged));
          tryTo('absolute', () => fs.appendFileSync(path.join(P, '.sopworks/board.jsonl'), forged));`,
        );
        await assertHostIntact(a);
        assert.doesNotMatch(await fs.readFile(path.join(a.project, '.sopworks/board.jsonl'), 'utf8'), /forged/);
      });

      it('cannot rewrite the board or the exchange log', async () => {
        const a = await attempt(
          'board-rewrite',
          `
          for (const file of ['board.jsonl', 'exchanges.jsonl']) {
            tryTo(file, () => fs.writeFileSync(path.join('.sopworks', file), '{}\\n'));
            tryTo(file + ' by sh', () => cp.execFileSync('sh', ['-c', 'echo "{}" > "$1"', 'sh', path.join(P, '.sopworks', file)], { stdio: 'pipe' }));
          }`,
        );
        await assertHostIntact(a);
        assertIntegrityCaught(a, /\.sopworks\/(board|exchanges)\.jsonl was rewritten/);
      });

      it('cannot change run.json or take the lock', async () => {
        const a = await attempt(
          'run-json',
          `
          tryTo('run.json', () => fs.writeFileSync('.sopworks/run.json', '{"outcome":"done"}'));
          tryTo('lock', () => fs.rmSync('.sopworks/lock'));
          tryTo('by sh', () => cp.execFileSync('sh', ['-c', 'echo "{\\\\"outcome\\\\":\\\\"done\\\\"}" > "$1/.sopworks/run.json"; echo 999999 > "$1/.sopworks/lock"', 'sh', P], { stdio: 'pipe' }));`,
        );
        await assertHostIntact(a);
        assertIntegrityCaught(a, /\.sopworks\/(run\.json|lock) was/);
      });

      it('cannot plant a link inside .sopworks/', async () => {
        const a = await attempt(
          'state-link',
          `
          tryTo('relative', () => fs.symlinkSync('/etc', '.sopworks/pending.json'));
          tryTo('by sh', () => cp.execFileSync('ln', ['-s', '/', path.join(P, '.sopworks/approvals')], { stdio: 'pipe' }));`,
        );
        await assertHostIntact(a);
        assertIntegrityCaught(a, /\.sopworks\/\S+ was created/);
      });
    });

    // ── Symbolic links ─────────────────────────────────────────────────────────────────────────
    describe('symbolic links', () => {
      /** After the attack, sopworks writes `file` into the project as it would commit an artifact. */
      async function sopworksWrites(project: string, file: string): Promise<{ refused: string | null; hash: string | null }> {
        const workspace = await Workspace.open(project);
        const result = await workspace
          .commit({
            files: [{ path: file, content: 'written by sopworks\n' }],
            author: { name: 'qa', email: 'qa@x' },
            subject: 'test: after the attack',
            trailers: {},
          })
          .then(
            (hash) => ({ refused: null, hash }),
            (error: Error) => ({ refused: error.message, hash: null }),
          );
        await workspace.finish().catch(() => undefined);
        return result;
      }

      it('a file link into .git/hooks: sopworks refuses to write through it', async () => {
        const a = await attempt(
          'link-hook',
          `
          fs.rmSync('src/app.js'); fs.symlinkSync('../.git/hooks/pre-commit', 'src/app.js');`,
        );
        await linksOnHost(a, ['src/app.js']);
        const write = await sopworksWrites(a.project, 'src/app.js');
        assert.match(write.refused ?? '', /src\/app\.js is a symbolic link/, JSON.stringify(write));
        assert.equal(await exists(path.join(a.project, '.git/hooks/pre-commit')), false);
        await assertHostIntact(a);
      });

      it('a folder link to a folder outside: sopworks refuses, nothing lands outside', async () => {
        const a = await attempt('link-dir-out', `fs.symlinkSync(path.join(P, '..', 'outside'), 'lib');`);
        await linksOnHost(a, ['lib']);
        const write = await sopworksWrites(a.project, 'lib/util.js');
        assert.match(write.refused ?? '', /lib is a symbolic link/);
        assert.deepEqual(await fs.readdir(host.outside), []);
        await assertHostIntact(a);
      });

      it('a folder link to .git inside the project: sopworks refuses', async () => {
        const a = await attempt('link-dir-in', `fs.symlinkSync('.git', 'meta');`);
        await linksOnHost(a, ['meta']);
        const write = await sopworksWrites(a.project, 'meta/config');
        assert.match(write.refused ?? '', /meta is a symbolic link/);
        await assertHostIntact(a);
      });

      it('a dangling link to a file outside: sopworks does not create the target', async () => {
        const target = () => path.join(host.outside, 'created-through-link');
        const a = await attempt('link-dangling', `fs.symlinkSync(path.join(P, '..', 'outside', 'created-through-link'), 'README.md');`);
        await linksOnHost(a, ['README.md']);
        const write = await sopworksWrites(a.project, 'README.md');
        assert.match(write.refused ?? '', /README\.md is a symbolic link/);
        assert.equal(await exists(target()), false);
        await assertHostIntact(a);
      });

      it('a file replaced by a link between two writes: the second write is refused', async () => {
        const a = await attempt('link-swap', `fs.rmSync('src/app.js'); fs.symlinkSync(path.join(P, '..', 'outside', 'victim.txt'), 'src/app.js');`);
        await fs.writeFile(path.join(host.outside, 'victim.txt'), 'original');
        await linksOnHost(a, ['src/app.js']);
        const write = await sopworksWrites(a.project, 'src/app.js');
        assert.match(write.refused ?? '', /is a symbolic link/);
        assert.equal(await fs.readFile(path.join(host.outside, 'victim.txt'), 'utf8'), 'original');
        await fs.rm(path.join(host.outside, 'victim.txt'));
        await assertHostIntact(a);
      });

      it(`links among a flood of ${(2 * FLOOD).toLocaleString('en')} files are all reported`, async () => {
        const links = Array.from({ length: 10 }, (_, i) => `flood/link-${i}`);
        const a = await attempt(
          'link-flood',
          `cp.execFileSync('sh', ['-c', 'mkdir flood && cd flood && seq -f f%05.0f 1 ${2 * FLOOD} | xargs touch && for i in 0 1 2 3 4 5 6 7 8 9; do ln -s /etc/passwd link-$i; done']);`,
          { cpuSeconds: 10, wallSeconds: 30 },
        );
        for (const link of links) {
          assert.ok(
            a.outcome.violations.some((v) => v.kind === 'symlink' && v.detail.startsWith(`${link} -> /etc/passwd`)),
            `${link} not reported:\n${describeOutcome(a.outcome)}`,
          );
        }
        await assertHostIntact(a);
      });

      it('links left in the work tree are reported and never committed', async () => {
        // With ln: Node's permission model refuses symlinkSync itself, a child that is not Node is not confined.
        const a = await attempt('link-commit', `cp.execFileSync('ln', ['-s', '/etc/passwd', 'passwd']); cp.execFileSync('ln', ['-s', '/', 'root']);`);
        assert.ok(
          a.outcome.violations.some((v) => v.kind === 'symlink' && /passwd -> \/etc\/passwd/.test(v.detail)),
          describeOutcome(a.outcome),
        );
        const write = await sopworksWrites(a.project, 'docs/after.md');
        assert.equal(write.refused, null);
        const tree = execFileSync('git', ['ls-tree', '-r', '--name-only', 'HEAD'], { cwd: a.project, encoding: 'utf8' });
        assert.doesNotMatch(tree, /^(passwd|root)$/m);
        assert.match(tree, /^docs\/after\.md$/m);
      });
    });

    // ── Secrets and environment ────────────────────────────────────────────────────────────────
    describe('secrets and environment', () => {
      it("sopworks' API key is neither in the environment nor in the output", async () => {
        const a = await attempt(
          'env',
          `
          console.log(JSON.stringify(process.env));
          for (const pid of ['1', String(process.ppid)]) tryTo('environ ' + pid, () => console.log(fs.readFileSync('/proc/' + pid + '/environ', 'utf8')));`,
        );
        assert.doesNotMatch(a.outcome.output, new RegExp(API_KEY));
        assert.doesNotMatch(a.outcome.output, /"OPENAI_API_KEY"/);
        await assertHostIntact(a);
      });

      it("the user's HOME is hidden under bubblewrap, a listed gap otherwise", async () => {
        const a = await attempt(
          'home',
          `
          tryTo('home', () => console.log(fs.readFileSync(path.join(P, '..', 'home', '.secret'), 'utf8')));`,
        );
        if (weaker)
          assert.ok(
            a.outcome.gaps.some((g) => /reads|filesystem/.test(g)),
            describeOutcome(a.outcome),
          );
        else assert.doesNotMatch(a.outcome.output, new RegExp(HOME_SECRET), describeOutcome(a.outcome));
        await assertHostIntact(a);
      });
    });

    // ── Network ────────────────────────────────────────────────────────────────────────────────
    describe('network', () => {
      const connectAttack = (target: string) => `
        const net = require('node:net');
        const s = net.connect(${target});
        s.on('data', (d) => console.log('CONNECTED', String(d).trim()));
        s.on('error', (e) => console.log('BLOCKED', e.code));
        setTimeout(() => process.exit(0), 1500);`;
      for (const [name, target] of [
        ['the host loopback (IPv4)', () => `{ host: '127.0.0.1', port: ${host.ports.v4} }`],
        ['the host loopback (IPv6)', () => `{ host: '::1', port: ${host.ports.v6 || 9} }`],
        ['a Unix socket of a host service', () => `{ path: ${JSON.stringify(host.socketPath)} }`],
      ] as const) {
        it(`cannot reach ${name} under bubblewrap; a listed gap otherwise`, async () => {
          const before = host.connections;
          const a = await attempt(`net-${name.replace(/\W+/g, '-')}`, connectAttack(target()));
          if (weaker) {
            assert.ok(
              a.outcome.gaps.some((g) => /^network/.test(g)),
              describeOutcome(a.outcome),
            );
          } else {
            assert.equal(host.connections, before, `a connection reached the host:\n${describeOutcome(a.outcome)}`);
            assert.doesNotMatch(a.outcome.output, /CONNECTED/);
          }
          await assertHostIntact(a);
        });
      }
    });

    // ── Processes ──────────────────────────────────────────────────────────────────────────────
    describe('processes', () => {
      for (const [name, argv] of [
        ['a detached child', ['sh', '-c', 'sleep 47; echo MARK']],
        ['setsid', ['setsid', 'sh', '-c', 'sleep 47; echo MARK']],
        ['a double fork', ['sh', '-c', '( sh -c "sleep 47; echo MARK" & ) &']],
      ] as const) {
        it(`no process outlives the run: ${name}`, async () => {
          const mark = `rt${process.pid}${name.replace(/\W+/g, '')}${modeCase.mode.replace(/\W/g, '')}`;
          const [command, ...args] = argv.map((word) => word.replace('MARK', mark));
          const a = await attempt(
            `proc-${name.replace(/\W+/g, '-')}`,
            `
            cp.spawn(${JSON.stringify(command)}, ${JSON.stringify(args)}, { detached: true, stdio: 'ignore' }).unref();
            setTimeout(() => console.log('parent leaves'), 300);`,
          );
          assert.deepEqual(await processesWith(mark), [], `a process of the run is still alive:\n${describeOutcome(a.outcome)}`);
          await assertHostIntact(a);
        });
      }
    });

    // ── Resources ──────────────────────────────────────────────────────────────────────────────
    describe('resources', () => {
      it('memory: an allocation loop is stopped and reported as the memory limit', async () => {
        const a = await attempt('memory', `const keep = []; for (;;) keep.push(Buffer.alloc(8 * 1024 * 1024, 1));`);
        assert.ok(a.outcome.limitsHit.includes('memory'), describeOutcome(a.outcome));
        assert.ok(
          a.outcome.limitNotes?.some((n) => /^memory: .*256 MB/.test(n)),
          describeOutcome(a.outcome),
        );
        await assertHostIntact(a);
      });

      it('CPU: a busy loop is killed and reported as the CPU limit', async () => {
        // A generous wall clock: on a loaded machine a second of CPU takes many seconds.
        const a = await attempt('cpu', `for (;;) {}`, { cpuSeconds: 1, wallSeconds: 60 });
        assert.ok(a.outcome.limitsHit.includes('cpu'), describeOutcome(a.outcome));
        assert.ok(
          a.outcome.limitNotes?.some((n) => /^cpu: /.test(n)),
          describeOutcome(a.outcome),
        );
        await assertHostIntact(a);
      });

      it('wall clock: a sleeper is killed, and the note names the test that was running', async () => {
        const a = await attempt('wall', `console.log('# Subtest: waits forever'); setInterval(() => {}, 1000);`, { wallSeconds: 2 });
        assert.ok(a.outcome.limitsHit.includes('time'), describeOutcome(a.outcome));
        assert.ok(
          a.outcome.limitNotes?.some((n) => /^time: .*"waits forever"/.test(n)),
          describeOutcome(a.outcome),
        );
        await assertHostIntact(a);
      });

      it('disk: one huge file stops at the file-size limit', async () => {
        const a = await attempt(
          'huge-file',
          `
          process.on('SIGXFSZ', () => {});
          const chunk = Buffer.alloc(1024 * 1024, 1); const fd = fs.openSync('huge.bin', 'w');
          try { for (let i = 0; i < 32; i++) fs.writeSync(fd, chunk); console.log('WROTE ALL'); } catch (e) { console.log('STOPPED', e.code); }`,
        );
        assert.ok(a.outcome.limitsHit.includes('disk'), describeOutcome(a.outcome));
        assert.doesNotMatch(a.outcome.output, /WROTE ALL/);
        const size = (await fs.stat(path.join(a.project, 'huge.bin')).catch(() => ({ size: 0 }))).size;
        assert.ok(size <= LIMITS.fileMb! * 1024 * 1024, `huge.bin is ${size} bytes on the host`);
        await assertHostIntact(a);
      });

      it('disk: many small files are reported as the disk limit (and, copied, not brought back)', async () => {
        const a = await attempt('many-files', `fs.mkdirSync('many'); for (let i = 0; i < 400; i++) fs.writeFileSync('many/f' + i, 'x');`);
        assert.ok(a.outcome.limitsHit.includes('disk'), describeOutcome(a.outcome));
        if (weaker) assert.equal(await exists(path.join(a.project, 'many')), false, 'the files were copied back');
        await assertHostIntact(a);
      });

      it('disk: a tree too deep to list is counted as over the limit and named, and leaves nothing behind in /tmp', async () => {
        // The temp folder of this attempt alone (other runs on the machine, parallel suites, make and remove theirs in /tmp).
        const ownTmp = await tempDir('sopworks-red-team-tmp-');
        const hostTmp = process.env.TMPDIR;
        process.env.TMPDIR = ownTmp;
        const sandboxFolders = async () => (await fs.readdir(ownTmp)).filter((n) => n.startsWith('sopworks-sandbox-') || n.startsWith('sopworks-work-'));
        const before = await sandboxFolders();
        // Deeper than a path can name (PATH_MAX), made a folder at a time; by a node not confined by the fallback.
        const deep = `for (let i = 0; i < 24; i++) { fs.mkdirSync('d'.repeat(200)); process.chdir('d'.repeat(200)); } fs.writeFileSync('x', ''); require('node:child_process').execFileSync('ln', ['-s', '/etc/passwd', 'link']);`;
        const a = await attempt(
          'deep-tree',
          `fs.mkdirSync('deep'); cp.execFileSync(process.execPath, ['-e', "const fs = require('node:fs'); " + ${JSON.stringify(deep)}], { cwd: 'deep', env: {}, stdio: 'inherit' });`,
        ).finally(() => {
          if (hostTmp === undefined) delete process.env.TMPDIR;
          else process.env.TMPDIR = hostTmp;
        });
        try {
          assert.ok(a.outcome.limitsHit.includes('disk'), describeOutcome(a.outcome));
          assert.ok(
            a.outcome.limitNotes?.some((n) =>
              /^disk: the work tree could not be measured in full \(deep\/d+…d+ \(\d+ folders deep\) \(ENAMETOOLONG\) could not be listed\)/.test(n),
            ),
            describeOutcome(a.outcome),
          );
          assert.ok(
            a.outcome.violations.some(
              (v) => v.kind === 'symlink' && /^links were not looked for in deep\/d+…d+ \(\d+ folders deep\) \(ENAMETOOLONG\)/.test(v.detail),
            ),
            describeOutcome(a.outcome),
          );
          if (weaker) {
            assert.ok(
              a.outcome.violations.some(
                (v) => v.kind === 'filesystem' && /^the files written were not copied back .*could not be measured in full/.test(v.detail),
              ),
              describeOutcome(a.outcome),
            );
            assert.equal(await exists(path.join(a.project, 'deep')), false, 'the deep tree was copied back');
          }
          assert.deepEqual(await sandboxFolders(), before, 'the scratch copy or the temp folder was left behind');
          await assertHostIntact(a);
        } finally {
          // GNU rm: the tree is beyond fs.rm's reach (under bubblewrap it was written in the project itself).
          spawnSync('rm', ['-rf', '--', path.join(a.project, 'deep')]);
        }
      });

      it('disk: filling /tmp is bounded under bubblewrap; the host /tmp keeps nothing', async () => {
        const a = await attempt(
          'tmp-fill',
          `
          const file = path.join(require('node:os').tmpdir(), 'fill.bin'); const chunk = Buffer.alloc(1024 * 1024, 1);
          try { for (let i = 0; i < 40; i++) fs.appendFileSync(file, chunk); console.log('FILLED'); } catch (e) { console.log('STOPPED', e.code); }`,
          { fileMb: 64 },
        );
        if (!weaker) assert.match(a.outcome.output, /STOPPED ENOSPC/, describeOutcome(a.outcome));
        const leftovers = (await fs.readdir('/tmp')).filter((n) => n.startsWith('sopworks-sandbox-') || n.startsWith('sopworks-work-'));
        for (const dir of leftovers) assert.equal(await exists(path.join('/tmp', dir, 'tmp', 'fill.bin')), false);
        await assertHostIntact(a);
      });

      it('output: a flood is cut to the output limit', async () => {
        const a = await attempt('flood', `const line = 'x'.repeat(1023) + '\\n'; for (let i = 0; i < 1024; i++) process.stdout.write(line);`);
        assert.ok(a.outcome.limitsHit.includes('output'), describeOutcome(a.outcome));
        assert.ok(a.outcome.output.length <= LIMITS.outputKb * 1024);
        await assertHostIntact(a);
      });
    });

    // ── /proc and /sys ─────────────────────────────────────────────────────────────────────────
    describe('/proc and /sys', () => {
      it('host processes are invisible under bubblewrap; a listed gap otherwise', async () => {
        const a = await attempt(
          'proc',
          `
          const pids = fs.readdirSync('/proc').filter((n) => /^\\d+$/.test(n));
          console.log('PIDS', pids.length, pids.includes(${JSON.stringify(String(process.pid))}) ? 'SEES-HOST' : 'OWN-ONLY');`,
        );
        if (weaker)
          assert.ok(
            a.outcome.gaps.some((g) => /reads|filesystem/.test(g)),
            describeOutcome(a.outcome),
          );
        else assert.match(a.outcome.output, /OWN-ONLY/, describeOutcome(a.outcome));
        await assertHostIntact(a);
      });

      it('/sys is not there under bubblewrap (no host devices or network interfaces to read)', async () => {
        const a = await attempt('sys', `tryTo('sys', () => console.log('NETS', fs.readdirSync('/sys/class/net').join(',')));`);
        if (!weaker) assert.doesNotMatch(a.outcome.output, /NETS/, describeOutcome(a.outcome));
        else
          assert.ok(
            a.outcome.gaps.some((g) => /reads|filesystem/.test(g)),
            describeOutcome(a.outcome),
          );
        await assertHostIntact(a);
      });
    });
  });
}
