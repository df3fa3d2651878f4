/** Which sandbox a run gets, what the bubblewrap and Node-permission layers are made of. */
import assert from 'node:assert/strict';
import { SopworksError } from '../../../../src/ground/errors.ts';
import { bubblewrapArgs } from '../../../../src/host/sandbox/bubblewrap.ts';
import { chooseMode, type ModeInput } from '../../../../src/host/sandbox/choose-mode.ts';
import { nodePermissionOptions } from '../../../../src/host/sandbox/node-permissions.ts';
import { prlimitArgs } from '../../../../src/host/sandbox/rlimits.ts';

const works = { available: true, version: 'bubblewrap 0.8.0' } as const;
const missing = { available: false, reason: 'bubblewrap (bwrap) is not installed' } as const;
const base: ModeInput = { setting: 'auto', bubblewrap: works, nodePermissions: works, runtime: 'node', allowUnsandboxed: false, command: 'node --test' };

const refused = (input: ModeInput, pattern: RegExp) =>
  assert.throws(
    () => chooseMode(input),
    (error: unknown) => SopworksError.isInstance(error) && pattern.test(error.message) && /apt-get install bubblewrap/.test(error.hint ?? ''),
  );

describe('sandbox mode', () => {
  it('uses bubblewrap wherever it works, for any runtime, without a notice', () => {
    for (const runtime of ['node', 'python', 'other'] as const) assert.deepEqual(chooseMode({ ...base, runtime }), { mode: 'bubblewrap', notice: null });
  });

  it("falls back to Node's permission model for Node, saying loudly what that does not stop", () => {
    const choice = chooseMode({ ...base, bubblewrap: missing });
    assert.equal(choice.mode, 'node-permissions');
    assert.match(choice.notice!, /^WEAKER SANDBOX: bubblewrap \(bwrap\) is not installed\. .*network are NOT blocked/);
    assert.equal(chooseMode({ ...base, setting: 'fallback' }).mode, 'node-permissions', 'SOPWORKS_SANDBOX=fallback forces it');
  });

  it('refuses Python without bubblewrap unless --allow-unsandboxed, which it then says loudly', () => {
    const python = { ...base, bubblewrap: missing, runtime: 'python' as const, command: 'python3 -m pytest' };
    refused(python, /^Cannot sandbox "python3 -m pytest": bubblewrap \(bwrap\) is not installed; the fallback covers only Node projects/);
    const choice = chooseMode({ ...python, allowUnsandboxed: true });
    assert.equal(choice.mode, 'unsandboxed');
    assert.match(choice.notice!, /^NOT SANDBOXED: .*runs with your user's rights/);
  });

  it('refuses to run without bubblewrap when SOPWORKS_SANDBOX=bubblewrap, even with --allow-unsandboxed', () => {
    refused(
      { ...base, setting: 'bubblewrap', bubblewrap: missing, allowUnsandboxed: true },
      /must be bubblewrap \(SOPWORKS_SANDBOX=bubblewrap\), but bubblewrap \(bwrap\) is not installed/,
    );
  });

  it('refuses Node too when its permission model does not work here', () => {
    refused(
      { ...base, bubblewrap: missing, nodePermissions: { available: false, reason: 'too old' } },
      /Node's permission model is not usable either \(too old\)/,
    );
  });

  it('builds a bubblewrap sandbox: all namespaces, read-only system, the project alone writable at /project, a clean environment', () => {
    const args = bubblewrapArgs(
      {
        projectDir: '/home/me/out/demo',
        roots: ['/opt/python3.12'],
        env: { PATH: '/usr/bin', HOME: '/home/sandbox' },
        argv: ['node', '--test'],
      },
      [
        { path: '/usr', kind: 'dir' },
        { path: '/bin', kind: 'symlink', target: 'usr/bin' },
      ],
      ['/etc/passwd'],
    );
    const text = args.join(' ');
    assert.match(text, /^--die-with-parent --new-session --unshare-all --cap-drop ALL /);
    assert.doesNotMatch(text, /--share-net/);
    assert.match(text, /--ro-bind \/usr \/usr --symlink usr\/bin \/bin --ro-bind \/etc\/passwd \/etc\/passwd --ro-bind \/opt\/python3\.12 \/opt\/python3\.12 /);
    assert.match(text, /--tmpfs \/tmp --tmpfs \/home\/sandbox --bind \/home\/me\/out\/demo \/project --chdir \/project --remount-ro \/ --clearenv /);
    assert.deepEqual(args.slice(-3), ['--', 'node', '--test']);
    assert.equal(args.filter((a) => a === '--bind').length, 1, 'one writable bind: the project');
    const install = bubblewrapArgs(
      {
        projectDir: '/p',
        roots: [],
        env: {},
        argv: ['npm', 'ci'],
        binds: [{ source: '/tmp/e/egress.sock', target: '/run/sopworks/egress.sock', readOnly: false }],
      },
      [],
      [],
    );
    assert.ok(!install.includes('--share-net'), "an install never shares the host's network");
    assert.match(install.join(' '), /--bind \/tmp\/e\/egress\.sock \/run\/sopworks\/egress\.sock/, 'only the egress socket is its way out');
  });

  it("passes Node's permission model in NODE_OPTIONS: writes to the project and temp folder, child processes allowed", () => {
    assert.equal(
      nodePermissionOptions({ projectDir: '/out/my project', tmpDir: '/tmp/s' }),
      '--experimental-permission --allow-fs-read=* "--allow-fs-write=/out/my project" --allow-fs-write=/tmp/s --allow-child-process --disable-warning=ExperimentalWarning --disable-warning=SecurityWarning',
    );
  });

  it('limits CPU, memory, file size and core files per process, and processes where RLIMIT_NPROC binds', () => {
    const limits = { wallSeconds: 5, cpuSeconds: 3, memoryMb: 256, maxProcesses: 64, outputKb: 8 };
    const mb = (n: number) => n * 1024 * 1024;
    assert.deepEqual(prlimitArgs(limits, null), ['prlimit', '--cpu=3:4', `--data=${mb(256)}:${mb(256)}`, `--fsize=${mb(256)}:${mb(256)}`, '--core=0', '--']);
    assert.ok(prlimitArgs({ ...limits, fileMb: 4 }, null).includes(`--fsize=${mb(4)}:${mb(4)}`));
    assert.ok(prlimitArgs(limits, 900).includes('--nproc=900:900'));
  });
});
