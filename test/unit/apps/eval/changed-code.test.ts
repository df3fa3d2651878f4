/**
 * What eval counts of a change run: the code files its branch changed against the base and the lines it
 * added to each, read from a real git diff — a line the change adds that starts with `++ ` is a line, not a
 * file's header — and completeness judged per file by the fast check's own placeholders.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { changedCode } from '../../../../src/apps/eval/changed-code.ts';
import { placeholdersIn } from '../../../../src/documents/index.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, encoding: 'utf8' }).trim();

describe('eval: the code a change run wrote', () => {
  after(removeTempDirs);

  it('reads the added lines per file, a `++ ` line as a line, and none of the base', async () => {
    const dir = await tempDir('changed-code-');
    git(dir, 'init', '-q', '-b', 'main');
    await fs.writeFile(path.join(dir, 'a.py'), 'def f():\n    return 1\n');
    await fs.writeFile(path.join(dir, 'notes.md'), '# notes\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'base');
    const base = git(dir, 'rev-parse', 'HEAD');
    await fs.writeFile(path.join(dir, 'a.py'), 'def f():\n    return 1\n\ndef g():\n    pass\n');
    await fs.writeFile(path.join(dir, 'b.c'), 'int x;\n++ y;\nint z;\n');
    await fs.writeFile(path.join(dir, 'notes.md'), '# notes\nTODO\n');
    await fs.mkdir(path.join(dir, '.sopworks'));
    await fs.writeFile(path.join(dir, '.sopworks', 'run.json'), JSON.stringify({ change: { repo: dir, base, baseName: 'main', branch: 'x' } }));
    git(dir, 'add', 'a.py', 'b.c', 'notes.md');
    git(dir, 'commit', '-qm', 'change');

    const changed = await changedCode(dir, (file) => !file.endsWith('.md'));
    assert.ok(changed);
    assert.deepEqual(changed.files.sort(), ['a.py', 'b.c']);
    assert.deepEqual(Object.fromEntries(changed.added), { 'a.py': ['', 'def g():', '    pass'], 'b.c': ['int x;', '++ y;', 'int z;'] });
    const unfinished = [...changed.added].filter(([file, lines]) => placeholdersIn(file, lines.join('\n')).length > 0).map(([file]) => file);
    assert.deepEqual(unfinished, ['a.py'], 'the function that only passes is unfinished; the C file is not');
  });

  it('is null for a run that is no change', async () => {
    const dir = await tempDir('changed-code-');
    assert.equal(await changedCode(dir, () => true), null);
  });
});
