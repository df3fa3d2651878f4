/**
 * The spec and the project name at the command line: an explicit blank spec is refused even when the
 * scenario carries one; a spec in any script gives a readable, transliterated project name.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { projectNameFromSpec } from '../../src/ground/files/index.ts';
import { sopworks } from '../helpers/in-process.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

describe('the spec and the project name', function () {
  this.timeout(30_000);
  after(removeTempDirs);

  it('refuses an explicit empty or blank spec (exit 2) even when the scenario carries a spec, and creates nothing', async () => {
    const cwd = await tempDir();
    const scenario = path.join(cwd, 'with-spec.yaml');
    await fs.writeFile(scenario, stringify({ spec: 'a CLI that counts words', replies: [{ role: 'product-manager', action: 'write_prd', reply: '{}' }] }));
    for (const blank of ['', '   \t ']) {
      const result = await sopworks(['run', blank, '--llm', `scripted:${scenario}`, '--out', cwd], { cwd });
      assert.equal(result.code, 2, result.stdout + result.stderr);
      assert.match(result.stderr, /The spec is empty/);
    }
    assert.deepEqual(await fs.readdir(cwd), ['with-spec.yaml']);
  });

  it('names a project from a spec in any script, transliterated, not with letters dropped or accents turned into dashes', () => {
    assert.equal(projectNameFromSpec('A CLI that counts word frequencies in text files'), 'cli-counts-word-frequencies');
    assert.equal(projectNameFromSpec('Crème brûlée recipe manager'), 'creme-brulee-recipe-manager');
    assert.equal(projectNameFromSpec('Ein Wörterzähler für Textdateien'), 'ein-worterzahler-fur-textdateien');
    assert.equal(projectNameFromSpec('счётчик слов в текстовых файлах'), 'schyotchik-slov-v-tekstovyh');
    assert.equal(projectNameFromSpec('统计文本文件中的词频'), 'tong-ji-wen-ben');
    assert.equal(projectNameFromSpec('Ελληνικά λέξεις'), 'ellinika-lexeis');
    assert.equal(projectNameFromSpec('한국어 단어 세기'), 'hangugeo-daneo-segi');
    assert.equal(projectNameFromSpec('!!! ???'), 'project');
  });
});
