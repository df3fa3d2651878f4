/**
 * What was installed, checked against what was declared: the host's Python reading a venv's metadata
 * (PYTHON_INSTALLED, with pip's own `packaging` from the wheel python3 ships), the line it ends with
 * read back, and the requirements a requirements file declares — each on real files.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { readInstalledCheck } from '../../../../src/host/install/installed-check.ts';
import { INSTALLED_CHECK_LINE, PYTHON_INSTALLED } from '../../../../src/host/install/python-install.ts';
import { declaredRequirements } from '../../../../src/host/install/python-sources.ts';
import { PYTHON, requireSystem } from '../../../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

const exec = promisify(execFile);

async function write(dir: string, files: Record<string, string>): Promise<void> {
  for (const [name, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await fs.writeFile(path.join(dir, name), content);
  }
}

describe('the installed-vs-declared check', () => {
  after(removeTempDirs);

  it("reads the installer's last check line, takes it out of the output, and names each unmet dependency", () => {
    const output = `added 2 packages\n${INSTALLED_CHECK_LINE}[{"name":"a","declared":"a@^2","found":"1.0.0"},{"name":"b","declared":"b>=1","found":null}]\n`;
    const read = readInstalledCheck(output, 'package.json');
    assert.equal(read.output, 'added 2 packages\n');
    assert.deepEqual(read.unmet, [
      { name: 'a', why: 'a@^2 (package.json) is installed at 1.0.0, which does not satisfy it' },
      { name: 'b', why: 'b>=1 (package.json) is not installed' },
    ]);
    assert.deepEqual(readInstalledCheck(`x\n${INSTALLED_CHECK_LINE}[]\n`, 'package.json').unmet, []);
  });

  it('an output without the line, or with a line that is not the JSON it should be, is not a check', () => {
    assert.equal(readInstalledCheck('added 1 package\n', 'package.json').unmet, null);
    assert.equal(readInstalledCheck(`${INSTALLED_CHECK_LINE}{"forged": true}\n`, 'package.json').unmet, null);
    assert.equal(readInstalledCheck(`${INSTALLED_CHECK_LINE}[{"name":"a"}]\n`, 'package.json').unmet, null);
  });

  it("a requirements file's declared requirements: its own and those of the files it includes with -r, without options or constraints", async () => {
    const dir = await tempDir();
    await write(dir, {
      'requirements.txt': 'tinyslug>=1.0 --hash=sha256:abc\n# a comment\n-r more.txt\n-c requirements.lock\nother[extra]==2.0 ; python_version >= "3"\n',
      'more.txt': '--requirement=deeper.txt\nmore-pkg\n',
      'deeper.txt': 'deep_pkg~=1.1\n-r requirements.txt\n',
      'requirements.lock': 'locked==1.0\n',
    });
    assert.deepEqual(declaredRequirements(dir, 'requirements.txt'), [
      'tinyslug>=1.0',
      'deep_pkg~=1.1',
      'more-pkg',
      'other[extra]==2.0 ; python_version >= "3"',
    ]);
  });

  describe("the host's Python reading a venv", () => {
    let wheel: string;
    before(async function () {
      requireSystem(this, PYTHON);
      const { stdout } = await exec('python3', [
        '-I',
        '-c',
        "import glob, os, sysconfig; print(sorted(glob.glob(os.path.join(sysconfig.get_paths()['stdlib'], 'ensurepip', '_bundled', 'pip-*.whl')) + glob.glob(os.path.join(sysconfig.get_config_var('WHEEL_PKG_DIR') or '/nonexistent', 'pip-*.whl')))[-1])",
      ]);
      wheel = stdout.trim();
    });

    it('writes the lockfile from the metadata, and names what is missing or out of range (markers evaluated, names normalised)', async () => {
      const site = await tempDir();
      const dist = (name: string, version: string) => ({
        [`${name}-${version}.dist-info/METADATA`]: `Metadata-Version: 2.1\nName: ${name}\nVersion: ${version}\n`,
      });
      await write(site, { ...dist('Tiny_Slug', '1.0.0'), ...dist('PyYAML', '6.0'), ...dist('old', '0.9') });
      const lock = path.join(site, 'requirements.lock');
      const declared = ['tiny-slug>=1.0', 'pyyaml==6.*', 'old>=1.0', 'absent', 'never ; python_version < "3"', 'not a requirement !!'];
      const { stdout } = await exec('python3', ['-I', '-S', '-c', PYTHON_INSTALLED, wheel, JSON.stringify([site]), JSON.stringify(declared), lock]);
      assert.equal(await fs.readFile(lock, 'utf8'), 'old==0.9\nPyYAML==6.0\nTiny_Slug==1.0.0\n');
      assert.deepEqual(readInstalledCheck(stdout, 'requirements.txt').unmet, [
        { name: 'old', why: 'old>=1.0 (requirements.txt) is installed at 0.9, which does not satisfy it' },
        { name: 'absent', why: 'absent (requirements.txt) is not installed' },
        { name: 'not a requirement !!', why: 'not a requirement !! (requirements.txt) is not installed' },
      ]);
    });
  });
});
