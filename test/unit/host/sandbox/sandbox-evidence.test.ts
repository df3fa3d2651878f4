/** Reading a run's output for what the sandbox stopped: violations, limits hit, leftovers, secrets. */
import assert from 'node:assert/strict';
import { describeLeftovers, takeLeftoverLines } from '../../../../src/host/sandbox/outlived.ts';
import { type EvidenceContext, limitsInOutput, violationsInOutput } from '../../../../src/host/sandbox/read-evidence.ts';
import { redactSecrets, secretsOf } from '../../../../src/host/sandbox/secrets.ts';

const onHost = new Set(['/root/.ssh/id_rsa', '/root/.ssh', '/srv/data']);
const bubblewrap: EvidenceContext = {
  mode: 'bubblewrap',
  projectDir: '/tmp/x/demo',
  sandboxProjectDir: '/project',
  tmpDir: null,
  existsOnHost: (f) => onHost.has(f),
};
const fallback: EvidenceContext = {
  mode: 'node-permissions',
  projectDir: '/tmp/x/demo',
  sandboxProjectDir: '/tmp/x/demo',
  tmpDir: '/tmp/sopworks-sandbox-1',
  existsOnHost: (f) => onHost.has(f),
};

describe('sandbox evidence', () => {
  it("reads Node's permission-model refusals, printed or in TAP, with the project written as <project>", () => {
    const printed =
      "Error: Access to this API has been restricted\n  code: 'ERR_ACCESS_DENIED',\n  permission: 'FileSystemWrite',\n  resource: '/tmp/x/escaped'\n}";
    const tap = [
      'not ok 3 - outside write',
      "  error: 'Access to this API has been restricted'",
      "  code: 'ERR_ACCESS_DENIED'",
      '  stack: |-',
      '    Object.writeFileSync (node:fs:2380:20)',
      '    TestContext.<anonymous> (file:///tmp/x/demo/test/a.test.js:12:34)',
    ].join('\n');
    const child =
      "Error: Access to this API has been restricted\n    at ChildProcess.spawn (node:internal/child_process:421:11)\n  code: 'ERR_ACCESS_DENIED',\n  permission: 'ChildProcess'\n}";
    assert.deepEqual(violationsInOutput(`${printed}\n${tap}\n${child}`, fallback), [
      { kind: 'filesystem', detail: 'write refused: /tmp/x/escaped' },
      { kind: 'filesystem', detail: 'writeFileSync refused by the permission model at <project>/test/a.test.js:12:34' },
      { kind: 'process', detail: 'child process refused' },
    ]);
  });

  it('reads read-only and permission errors of Node, Python and the shell', () => {
    const output = [
      "Error: EROFS: read-only file system, open '/escaped.txt'",
      "OSError: [Errno 30] Read-only file system: '/usr/lib/evil'",
      'sh: 1: cannot create /etc/evil: Read-only file system',
      "PermissionError: [Errno 13] Permission denied: '/srv/data'",
      "Error: EACCES: permission denied, open '/project/own-file'",
    ].join('\n');
    assert.deepEqual(violationsInOutput(output, bubblewrap), [
      { kind: 'filesystem', detail: 'write refused (read-only): /escaped.txt' },
      { kind: 'filesystem', detail: 'write refused (read-only): /usr/lib/evil' },
      { kind: 'filesystem', detail: 'write refused (read-only): /etc/evil' },
      { kind: 'filesystem', detail: 'permission denied: /srv/data' },
    ]);
  });

  it('calls a missing path hidden only when the host has it, and only under bubblewrap', () => {
    const output = [
      "Error: ENOENT: no such file or directory, open '/root/.ssh/id_rsa'",
      "FileNotFoundError: [Errno 2] No such file or directory: '/root/.ssh/known_hosts'",
      "Error: ENOENT: no such file or directory, open '/no/such/file.txt'",
      "Error: ENOENT: no such file or directory, open '/project/missing.txt'",
    ].join('\n');
    assert.deepEqual(violationsInOutput(output, bubblewrap), [
      { kind: 'filesystem', detail: 'hidden from the sandbox: /root/.ssh/id_rsa' },
      { kind: 'filesystem', detail: 'hidden from the sandbox: /root/.ssh/known_hosts' },
    ]);
    assert.deepEqual(violationsInOutput(output, fallback), []);
  });

  it('reads refused connections under bubblewrap, where the sandbox is what refused them', () => {
    const output = 'connect ECONNREFUSED 127.0.0.1:4000\ngetaddrinfo EAI_AGAIN example.com\nConnectionRefusedError: [Errno 111] Connection refused';
    assert.deepEqual(violationsInOutput(output, bubblewrap), [
      { kind: 'network', detail: 'connection refused: 127.0.0.1:4000 (ECONNREFUSED)' },
      { kind: 'network', detail: 'name lookup failed: example.com (EAI_AGAIN)' },
      { kind: 'network', detail: 'connection refused (Errno 111)' },
    ]);
    assert.deepEqual(violationsInOutput(output, fallback), [], 'the fallback blocks no network: a refusal there is not its doing');
  });

  it('reads limits from the signs runtimes print', () => {
    assert.deepEqual(limitsInOutput('FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory'), ['memory']);
    assert.deepEqual(limitsInOutput('Traceback (most recent call last):\nMemoryError'), ['memory']);
    assert.deepEqual(limitsInOutput("test failed\n  signal: 'SIGXCPU'"), ['cpu']);
    assert.deepEqual(limitsInOutput('/bin/sh: 0: Cannot fork'), ['processes']);
    assert.deepEqual(limitsInOutput('Error: spawn /usr/bin/node EAGAIN'), ['processes']);
    assert.deepEqual(limitsInOutput('BlockingIOError: [Errno 11] Resource temporarily unavailable'), ['processes']);
    assert.deepEqual(limitsInOutput('# pass 8\n# fail 0'), []);
  });

  it('takes the leftover lines of the in-sandbox reporter out of the output, and counts alike ones', () => {
    const output = 'ok 1 - works\nrun-1 outlived: sleep 30\nrun-1 outlived: sleep 30\nrun-1 outlived: node server.js\n# pass 1';
    const taken = takeLeftoverLines(output, 'run-1');
    assert.equal(taken.output, 'ok 1 - works\n# pass 1');
    assert.deepEqual(describeLeftovers([taken.commands]), [
      'still running after the run, killed: sleep 30 (2 processes)',
      'still running after the run, killed: node server.js',
    ]);
    // The host's scan may find the same processes again: they are not counted twice.
    assert.deepEqual(describeLeftovers([taken.commands, ['node server.js', 'sleep 30']]), describeLeftovers([taken.commands]));
    assert.deepEqual(takeLeftoverLines('other-run outlived: x', 'run-1').commands, [], 'only the run’s own token counts');
  });

  it('redacts the value of every secret-looking variable, and names what leaked', () => {
    const secrets = secretsOf({ OPENAI_API_KEY: 'sk-abcdefgh12345', GITHUB_TOKEN: 'ghp_0123456789', PATH: '/usr/bin:/bin', SHORT_KEY: 'abc' });
    assert.deepEqual(secrets.map((s) => s.name).sort(), ['GITHUB_TOKEN', 'OPENAI_API_KEY']);
    const { output, leaked } = redactSecrets('key=sk-abcdefgh12345 and sk-abcdefgh12345; path /usr/bin:/bin', secrets);
    assert.equal(output, 'key=[redacted OPENAI_API_KEY] and [redacted OPENAI_API_KEY]; path /usr/bin:/bin');
    assert.deepEqual(leaked, ['OPENAI_API_KEY']);
  });
});
