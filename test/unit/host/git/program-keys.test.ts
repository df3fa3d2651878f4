/**
 * Which configuration keys name a program (src/host/git/program-keys.ts), judged against every key the
 * git here documents (`git help --config`): the class rules catch each one that runs something, leave
 * the rest alone, and give each a value git accepts — checked by a real git with all of them set.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { configOverrides } from '../../../../src/host/git/git-hardening.ts';
import { programKeyClass } from '../../../../src/host/git/program-keys.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

/** Every key git documents, its placeholders filled in as a repository would. */
function documentedKeys(): string[] {
  const listed = execFileSync('git', ['help', '--config'], { encoding: 'utf8' }).split('\n');
  return listed
    .filter((line) => /^[a-zA-Z][\w.<>*-]*$/.test(line) && line.includes('.'))
    .map((line) =>
      line
        .replace('<format>', 'x509')
        .replace('<cmd>', 'show')
        .replace(/<[^>]+>/g, 'x')
        .replace('*', 'x'),
    );
}

/** The documented keys that run a program (git 2.31 and later). */
const RUNS_A_PROGRAM = [
  'alias.x',
  'browser.x.cmd',
  'browser.x.path',
  'core.alternaterefscommand',
  'core.askpass',
  'core.editor',
  'core.fsmonitor',
  'core.gitproxy',
  'core.hookspath',
  'core.pager',
  'core.sshcommand',
  'credential.helper',
  'diff.external',
  'diff.x.command',
  'diff.x.textconv',
  'difftool.x.cmd',
  'difftool.x.path',
  'filter.x.clean',
  'filter.x.smudge',
  'gpg.program',
  'gpg.ssh.defaultkeycommand',
  'gpg.x509.program',
  'interactive.difffilter',
  'log.showsignature',
  'man.x.cmd',
  'man.x.path',
  'merge.x.driver',
  'mergetool.x.cmd',
  'mergetool.x.path',
  'pager.show',
  'sendemail.smtpserver',
  'sequence.editor',
  'submodule.x.update',
  'uploadpack.packobjectshook',
];

describe('git configuration keys that name a program', () => {
  after(removeTempDirs);

  it('catches, by class, every key git documents that runs a program', () => {
    const documented = documentedKeys().map((key) => key.toLowerCase());
    const known = RUNS_A_PROGRAM.filter((k) => documented.includes(k));
    assert.ok(
      known.length >= RUNS_A_PROGRAM.length - 4,
      `git here documents ${known.length} of them: ${RUNS_A_PROGRAM.filter((k) => !known.includes(k))} missing`,
    );
    for (const key of RUNS_A_PROGRAM) assert.ok(programKeyClass(key), `${key} names a program`);
  });

  it('catches keys git does not document by the same rules: a tool, a hook, a later version', () => {
    for (const key of [
      'lfs.customtransfer.evil.path',
      'hook.pre-commit.command',
      'credential.https://example.com.helper',
      'gpg.ssh.program',
      'protocol.ext.allow',
      'remote.origin.vcs',
    ])
      assert.ok(programKeyClass(key), key);
  });

  it('leaves booleans and plain values alone, whatever their names end with', () => {
    for (const key of [
      'color.pager',
      'advice.waitingforeditor',
      'advice.ignoredhook',
      'core.fsmonitorhookversion',
      'credential.usehttppath',
      'completion.commands',
      'include.path',
      'user.name',
      'submodule.x.path',
      'http.proxy',
    ])
      assert.equal(programKeyClass(key), null, key);
  });

  it('gives each key a value a real git accepts: every documented key and its override set at once', async () => {
    const repo = await tempDir('sopworks-program-keys-unit-');
    execFileSync('git', ['init', '-q'], { cwd: repo });
    await fs.writeFile(path.join(repo, 'a.txt'), 'a\n');
    execFileSync('git', ['-c', 'user.name=u', '-c', 'user.email=u@x', 'commit', '-q', '--allow-empty', '-m', 'start'], { cwd: repo });
    const overrides = configOverrides(documentedKeys().map((key) => ({ key })));
    assert.ok(overrides.length > 30, `${overrides.length} overrides`);
    const env = { ...process.env, GIT_CONFIG_COUNT: String(overrides.length) } as NodeJS.ProcessEnv;
    overrides.forEach(([key, value], index) => Object.assign(env, { [`GIT_CONFIG_KEY_${index}`]: key, [`GIT_CONFIG_VALUE_${index}`]: value }));
    for (const args of [['log', '-p'], ['status', '--porcelain'], ['diff', 'HEAD'], ['show', '--stat'], ['ls-files']])
      execFileSync('git', args, { cwd: repo, env, stdio: 'pipe' });
  });
});
