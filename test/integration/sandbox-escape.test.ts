/**
 * The escape suite: generated code that tries to get out. Each attempt must be contained (the host is
 * unharmed) and reported as a violation or a limit — under bubblewrap, and under the fallback, where
 * what the fallback cannot stop is asserted as a reported gap, never as contained.
 * Limits are small so the suite stays fast, and the fork bomb is bounded by design (300 processes at
 * most) so that it could not harm a host even where the sandbox cannot bound it.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { bubblewrapAvailability, type ModeSetting, runSandboxed, type SandboxLimits, type SandboxOutcome } from '../../src/host/sandbox/index.ts';
import { BUBBLEWRAP, requireSystem } from '../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const LIMITS: SandboxLimits = { wallSeconds: 4, cpuSeconds: 2, memoryMb: 256, maxProcesses: 64, outputKb: 64 };
const API_KEY = `sk-escape-suite-${process.pid}-do-not-leak`;
const HOME_SECRET = `home-secret-${process.pid}`;

interface Host {
  dir: string;
  outside: string;
  homeMarker: string;
  server: net.Server;
  port: number;
  connections: number;
}

/** Pids of processes on the host whose command line holds the marker. */
async function processesWith(marker: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const cmdline = await fs.readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(marker)) found.push(Number(entry));
  }
  return found;
}

const kinds = (outcome: SandboxOutcome) => outcome.violations.map((v) => v.kind);
const describeOutcome = (outcome: SandboxOutcome) =>
  JSON.stringify(
    {
      mode: outcome.mode,
      exitCode: outcome.exitCode,
      limitsHit: outcome.limitsHit,
      violations: outcome.violations,
      gaps: outcome.gaps,
      output: outcome.output.slice(-1500),
    },
    null,
    2,
  );

for (const setting of ['auto', 'fallback'] as ModeSetting[]) {
  const expected = setting === 'auto' ? 'bubblewrap' : 'node-permissions';

  describe(`escape attempts under ${expected}`, function () {
    this.timeout(30_000);
    let host: Host;
    const saved = { HOME: process.env.HOME, OPENAI_API_KEY: process.env.OPENAI_API_KEY };

    /** Writes the generated code into a fresh project and runs it as QA would. */
    async function attempt(name: string, code: string, files: Record<string, string> = {}): Promise<SandboxOutcome> {
      const project = path.join(host.dir, `project-${name}`);
      await fs.mkdir(project);
      await fs.writeFile(path.join(project, 'escape.js'), code);
      for (const [file, content] of Object.entries(files)) await fs.writeFile(path.join(project, file), content);
      return runSandboxed({ argv: ['node', 'escape.js'], projectDir: project, limits: LIMITS, setting, allowUnsandboxed: false });
    }

    before(async function () {
      if (setting === 'auto') {
        requireSystem(this, BUBBLEWRAP);
        const availability = await bubblewrapAvailability();
        assert.ok(
          availability.available,
          `bubblewrap must be installed and usable for this suite (.ci/run installs it): ${availability.available ? '' : availability.reason}`,
        );
      }
      const dir = await tempDir('sopworks-escape-');
      const home = path.join(dir, 'home');
      await fs.mkdir(path.join(dir, 'outside'), { recursive: true });
      await fs.mkdir(home);
      await fs.writeFile(path.join(home, '.marker'), HOME_SECRET);
      // The parent's HOME and API key, as a user running sopworks has them.
      process.env.HOME = home;
      process.env.OPENAI_API_KEY = API_KEY;
      host = { dir, outside: path.join(dir, 'outside'), homeMarker: path.join(home, '.marker'), server: net.createServer(), port: 0, connections: 0 };
      host.server.on('connection', (socket) => {
        host.connections++;
        socket.end('hello from the host\n');
      });
      await new Promise<void>((resolve) => host.server.listen(0, '127.0.0.1', resolve));
      host.port = (host.server.address() as net.AddressInfo).port;
    });

    after(async () => {
      process.env.HOME = saved.HOME;
      if (saved.OPENAI_API_KEY === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved.OPENAI_API_KEY;
      if (host) await new Promise((resolve) => host.server.close(resolve));
      await removeTempDirs();
    });

    it(`runs under ${expected}`, async () => {
      const outcome = await attempt('mode', 'console.log("hello")');
      assert.equal(outcome.mode, expected);
      assert.equal(outcome.exitCode, 0, describeOutcome(outcome));
      assert.match(outcome.output, /hello/);
    });

    it('refuses writes outside the project, by absolute path and by ..', async () => {
      const absolute = path.join(host.outside, 'escaped.txt');
      const outcome = await attempt(
        'write',
        `const fs = require('node:fs');
         for (const target of [${JSON.stringify(absolute)}, require('node:path').join(process.cwd(), '..', 'escaped-up.txt')]) {
           try { fs.writeFileSync(target, 'escaped'); console.log('WROTE', target); } catch (error) { console.error(error); }
         }`,
      );
      assert.doesNotMatch(outcome.output, /WROTE/, describeOutcome(outcome));
      await assert.rejects(fs.access(absolute), 'the host file was not created');
      await assert.rejects(fs.access(path.join(host.dir, 'escaped-up.txt')), 'nothing was written next to the project');
      assert.ok(outcome.violations.filter((v) => v.kind === 'filesystem').length >= 2, describeOutcome(outcome));
    });

    it('refuses a write through a symbolic link it made to a folder outside', async () => {
      const outcome = await attempt(
        'symlink',
        `const fs = require('node:fs');
         try { fs.symlinkSync(${JSON.stringify(host.outside)}, 'link'); console.log('LINKED'); } catch (error) { console.error(error); }
         try { fs.writeFileSync('link/through-link.txt', 'escaped'); console.log('WROTE'); } catch (error) { console.error(error); }`,
      );
      await assert.rejects(fs.access(path.join(host.outside, 'through-link.txt')), 'nothing was written through the link');
      assert.doesNotMatch(outcome.output, /WROTE/, describeOutcome(outcome));
      assert.ok(
        kinds(outcome).some((k) => k === 'filesystem' || k === 'symlink'),
        describeOutcome(outcome),
      );
      if (/LINKED/.test(outcome.output)) {
        assert.ok(
          outcome.violations.some((v) => v.kind === 'symlink' && v.detail.startsWith('link -> ')),
          `a link left in the project is reported: ${describeOutcome(outcome)}`,
        );
      }
    });

    it(
      setting === 'auto'
        ? "cannot read a file in the user's HOME, and sees an empty HOME of its own"
        : "sees an empty HOME of its own, and reports that it cannot stop reading the user's",
      async () => {
        const outcome = await attempt(
          'home',
          `const fs = require('node:fs');
         console.log('home is', require('node:os').homedir());
         try { console.log('READ', fs.readFileSync(${JSON.stringify(host.homeMarker)}, 'utf8')); } catch (error) { console.error(error); }`,
        );
        assert.doesNotMatch(outcome.output, new RegExp(`home is ${path.dirname(host.homeMarker)}\n`), describeOutcome(outcome));
        if (setting === 'auto') {
          assert.doesNotMatch(outcome.output, new RegExp(HOME_SECRET), describeOutcome(outcome));
          assert.ok(
            outcome.violations.some((v) => v.kind === 'filesystem' && v.detail === `hidden from the sandbox: ${host.homeMarker}`),
            describeOutcome(outcome),
          );
        } else {
          // The documented gap: the permission model leaves reads open.
          assert.match(outcome.output, new RegExp(`READ ${HOME_SECRET}`));
          assert.ok(
            outcome.gaps.some((gap) => gap.startsWith('reads: not limited')),
            describeOutcome(outcome),
          );
        }
        assert.equal(await fs.readFile(host.homeMarker, 'utf8'), HOME_SECRET);
      },
    );

    it('gets no API key from the environment, and a key it finds is redacted and reported', async () => {
      const outcome = await attempt(
        'env',
        `console.log('env key:', process.env.OPENAI_API_KEY ?? '(none)');
         console.log('env names:', Object.keys(process.env).filter((name) => /OPENAI|KEY|TOKEN/.test(name)).join(',') || '(none)');
         console.log('found:', require('node:fs').readFileSync('.env', 'utf8'));`,
        // Code can still come across a key (a copied .env, say); what it prints must not carry it.
        { '.env': `OPENAI_API_KEY=${API_KEY}\n` },
      );
      assert.match(outcome.output, /env key: \(none\)/, describeOutcome(outcome));
      assert.match(outcome.output, /env names: \(none\)/);
      assert.ok(!outcome.output.includes(API_KEY), 'the key never appears in the output');
      assert.match(outcome.output, /found: OPENAI_API_KEY=\[redacted OPENAI_API_KEY\]/);
      assert.deepEqual(
        outcome.violations.filter((v) => v.kind === 'secret'),
        [{ kind: 'secret', detail: 'the value of OPENAI_API_KEY appeared in the output (redacted)' }],
      );
    });

    it(setting === 'auto' ? "cannot reach a server on the host's loopback" : "reports that it cannot stop a connection to the host's loopback", async () => {
      const before = host.connections;
      const outcome = await attempt(
        'network',
        `const socket = require('node:net').connect(${host.port}, '127.0.0.1');
         socket.on('data', (data) => console.log('RECEIVED', String(data).trim()));
         socket.on('error', (error) => console.error(error.message));`,
      );
      if (setting === 'auto') {
        assert.doesNotMatch(outcome.output, /RECEIVED/, describeOutcome(outcome));
        assert.equal(host.connections, before, 'the host server saw no connection');
        assert.ok(
          outcome.violations.some((v) => v.kind === 'network' && v.detail === `connection refused: 127.0.0.1:${host.port} (ECONNREFUSED)`),
          describeOutcome(outcome),
        );
      } else {
        // The documented gap: Node's permission model does not cover the network.
        assert.match(outcome.output, /RECEIVED hello from the host/);
        assert.ok(
          outcome.gaps.some((gap) => gap.startsWith('network: not blocked')),
          describeOutcome(outcome),
        );
      }
    });

    it('is stopped when it loops forever (CPU limit, or the wall clock)', async () => {
      const outcome = await attempt('loop', 'for (;;);');
      assert.notEqual(outcome.exitCode, 0);
      assert.ok(outcome.limitsHit.includes('cpu') || outcome.limitsHit.includes('time'), describeOutcome(outcome));
    });

    it('is stopped by the wall clock when it waits forever', async () => {
      const outcome = await attempt('wait', 'setInterval(() => {}, 1000); console.log("waiting")');
      assert.equal(outcome.timedOut, true, describeOutcome(outcome));
      assert.deepEqual(outcome.limitsHit, ['time']);
    });

    it('is stopped when it allocates without bound', async () => {
      const outcome = await attempt('alloc', 'const keep = []; for (;;) keep.push(Buffer.alloc(1 << 20, 1));');
      assert.notEqual(outcome.exitCode, 0, describeOutcome(outcome));
      assert.ok(outcome.limitsHit.includes('memory'), describeOutcome(outcome));
    });

    it('is bounded when it fork-bombs, and every process is gone afterwards', async () => {
      const marker = `sopworks-bomb-${process.pid}-${setting}`;
      const outcome = await attempt(
        'bomb',
        `const { spawn } = require('node:child_process');
         const script = 'i=0; while [ $i -lt 300 ]; do sh -c "sleep 30; :" ${marker} & i=$((i+1)); done; echo STARTED ALL; wait';
         spawn('/bin/sh', ['-c', script], { stdio: 'inherit' });`,
      );
      if (outcome.gaps.some((gap) => gap.startsWith('processes: not bounded'))) {
        // Only on a host where neither a pids cgroup nor RLIMIT_NPROC binds: the gap is said, and the
        // bounded bomb's processes are still killed at the end.
        assert.match(outcome.output, /STARTED ALL/);
      } else {
        assert.doesNotMatch(outcome.output, /STARTED ALL/, describeOutcome(outcome));
        assert.ok(outcome.limitsHit.includes('processes'), describeOutcome(outcome));
      }
      assert.ok(kinds(outcome).includes('outlived'), describeOutcome(outcome));
      assert.deepEqual(await processesWith(marker), []);
    });

    it('cannot leave a detached process running after the run', async () => {
      const marker = `sopworks-detached-${process.pid}-${setting}`;
      const outcome = await attempt(
        'detached',
        `const { spawn } = require('node:child_process');
         const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', ${JSON.stringify(marker)}], { detached: true, stdio: 'ignore' });
         child.unref();
         console.log('started', child.pid);`,
      );
      assert.equal(outcome.exitCode, 0, describeOutcome(outcome));
      // Reported under the command it had when it was found (between fork and exec: its parent's).
      assert.ok(kinds(outcome).includes('outlived'), describeOutcome(outcome));
      assert.deepEqual(await processesWith(marker), []);
    });

    it('cannot leave a detached process that clears its environment running, or says it could not stop it', async () => {
      const marker = `sopworks-clean-env-${process.pid}-${setting}`;
      const outcome = await attempt(
        'clean-env',
        `const { spawn } = require('node:child_process');
         const child = spawn('/bin/sh', ['-c', 'exec env -i /bin/sh -c "sleep 30; :" ${marker}'], { detached: true, stdio: 'ignore', env: {} });
         child.unref();`,
      );
      if (outcome.gaps.some((gap) => gap.startsWith('leftover processes'))) {
        // The fallback's documented gap without a pids cgroup: such a process is not found, and the
        // report does not pretend otherwise. The suite cleans up after it.
        assert.ok(!kinds(outcome).includes('outlived'), describeOutcome(outcome));
        for (const pid of await processesWith(marker)) process.kill(pid, 'SIGKILL');
      } else {
        assert.ok(kinds(outcome).includes('outlived'), describeOutcome(outcome));
        assert.deepEqual(await processesWith(marker), []);
      }
    });
  });
}
