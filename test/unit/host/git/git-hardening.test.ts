/**
 * sopworks' own git on a tampered repository: hooks (reference-transaction and post-index-change run
 * on sopworks' own commits and index updates), fsmonitor, a pager and a credential helper planted in
 * the repository's config. Committing, reading the history and bringing the index along run none of
 * them — a marker file that any of them would make stays absent.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { readCommits } from '../../../../src/apps/review/index.ts';
import { Workspace } from '../../../../src/capabilities/repository/index.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

describe("sopworks' own git on a tampered repository", () => {
  after(removeTempDirs);

  it('commits, reads the history and updates the index without running anything the repository names', async () => {
    const dir = await tempDir('sopworks-git-hardening-');
    const project = path.join(dir, 'project');
    const marker = path.join(dir, 'PWNED');
    await fs.mkdir(project);
    execFileSync('git', ['init', '-q'], { cwd: project });
    await fs.writeFile(path.join(project, 'a.txt'), 'a\n');
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'start'], { cwd: project });
    for (const hook of ['reference-transaction', 'post-index-change', 'pre-commit', 'post-commit', 'post-checkout']) {
      await fs.writeFile(path.join(project, '.git', 'hooks', hook), `#!/bin/sh\necho ${hook} >> ${marker}\n`, { mode: 0o755 });
    }
    await fs.appendFile(
      path.join(project, '.git', 'config'),
      `[core]\n\tfsmonitor = "echo fsmonitor >> ${marker}; false"\n\tpager = "echo pager >> ${marker}; cat"\n[credential]\n\thelper = "!echo helper >> ${marker}"\n[diff]\n\texternal = "echo diff >> ${marker}"\n`,
    );
    // The planted hooks do run under a plain git: the test would notice if they did not.
    execFileSync('git', ['update-ref', 'refs/heads/probe', 'HEAD'], { cwd: project });
    assert.match(await fs.readFile(marker, 'utf8'), /reference-transaction/);
    await fs.rm(marker);

    const workspace = await Workspace.open(project);
    await workspace.commit({
      files: [{ path: 'src/b.js', content: 'b\n' }],
      author: { name: 'e', email: 'e@x' },
      subject: 'feat: b',
      trailers: { 'Sopworks-Message': 'msg-000001' },
    });
    await workspace.finish();
    assert.deepEqual(
      (await workspace.history()).map((c) => c.subject),
      ['start', 'feat: b'],
    );
    assert.deepEqual(await workspace.trackedFiles(), ['src/b.js']);
    assert.equal((await readCommits(project)).length, 2);
    await assert.rejects(fs.access(marker), 'a planted hook or key ran');
  });
});
