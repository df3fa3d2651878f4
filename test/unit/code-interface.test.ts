import assert from 'node:assert/strict';
import { codeInterface } from '../../src/documents/code-interface.ts';

const JS = `import fs from 'node:fs';

const cache = new Map();

/**
 * Counts how often each word appears.
 * @param {string} text
 */
export function countWords(text) {
  const counts = new Map();
  for (const word of text.split(/\\s+/)) {
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return counts;
}

// internal helper
function secretHelper() {
  return 42;
}

export const DEFAULT_LIMIT = 10;

/** A counter you can feed text. */
export class WordCounter {
  constructor(limit) {
    this.limit = limit;
  }

  add(text) {
    if (text) {
      return this.limit;
    }
  }
}

export async function readAll(file) {
  return fs.promises.readFile(file, 'utf8');
}
`;

const PY = `"""Word counting."""
import re

DEFAULT_LIMIT = 10
_cache = {}


def count_words(text: str) -> dict[str, int]:
    """Counts words."""
    counts = {}
    for word in re.split(r"\\s+", text):
        counts[word] = counts.get(word, 0) + 1
    return counts


class WordCounter:
    def __init__(self, limit: int = 10):
        self.limit = limit

    async def feed(self, text):
        return self.limit

    def _private(self):
        def inner():
            pass
        return inner
`;

describe('codeInterface', () => {
  describe('JavaScript', () => {
    const out = codeInterface('src/words.js', JS);

    it('keeps exported signatures, with their bodies elided', () => {
      assert.ok(out.includes('export function countWords(text) { … }'), out);
      assert.ok(out.includes('export async function readAll(file) { … }'), out);
      assert.ok(out.includes('export const DEFAULT_LIMIT = 10;'), out);
      assert.match(out, /^export class WordCounter \{/m);
    });

    it('keeps the JSDoc of exported declarations, right above them', () => {
      assert.ok(out.includes('/**\n * Counts how often each word appears.\n * @param {string} text\n */\nexport function countWords(text)'), out);
      assert.ok(out.includes('/** A counter you can feed text. */\nexport class WordCounter'), out);
    });

    it('keeps the method signatures of an exported class', () => {
      assert.match(out, /^\s+constructor\(limit\) \{ … \}$/m);
      assert.match(out, /^\s+add\(text\) \{ … \}$/m);
    });

    it('shows an exported class as one balanced block holding its method signatures', () => {
      const source = 'export class A {\n  constructor(x) {\n    this.x = x;\n  }\n\n  get value() {\n    return this.x;\n  }\n}\n';
      assert.equal(codeInterface('src/a.js', source), 'export class A {\n  constructor(x) { … }\n  get value() { … }\n}');
    });

    it('drops bodies, imports, private declarations and ordinary comments', () => {
      for (const gone of [
        'counts.set',
        'return counts',
        'secretHelper',
        'return 42',
        'const cache',
        'import fs',
        'internal helper',
        'this.limit = limit',
        'if (text)',
        'readFile(file',
      ]) {
        assert.ok(!out.includes(gone), `"${gone}" should be dropped:\n${out}`);
      }
    });

    it('works for TypeScript and CommonJS files too', () => {
      assert.equal(codeInterface('src/a.ts', 'export function f(a: number): number {\n  return a;\n}\n'), 'export function f(a: number): number { … }');
      assert.equal(codeInterface('lib/b.cjs', 'function g() {\n  return 1;\n}\nmodule.exports = { g };\n'), 'module.exports = { g };');
    });

    it('falls back to the head of the file when nothing is exported', () => {
      const script = 'console.log("hello");\nprocess.exit(0);\n';
      assert.equal(codeInterface('bin/run.mjs', script), script.split('\n').slice(0, 40).join('\n'));
    });
  });

  describe('Python', () => {
    const out = codeInterface('wordfreq/words.py', PY);

    it('keeps module constants, def and class lines, and method defs', () => {
      assert.deepEqual(out.split('\n'), [
        'DEFAULT_LIMIT = 10',
        'def count_words(text: str) -> dict[str, int]:',
        'class WordCounter:',
        '    def __init__(self, limit: int = 10):',
        '    async def feed(self, text):',
        '    def _private(self):',
      ]);
    });

    it('drops bodies, docstrings, imports and nested functions', () => {
      for (const gone of ['counts = {}', 'Counts words', 'import re', 'def inner', 'self.limit = limit', '_cache']) {
        assert.ok(!out.includes(gone), `"${gone}" should be dropped:\n${out}`);
      }
    });
  });

  describe('other files', () => {
    it('gives the first 40 lines of a file in an unknown language', () => {
      const lines = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`);
      const out = codeInterface('data/words.txt', lines.join('\n'));
      assert.deepEqual(out.split('\n'), lines.slice(0, 40));
    });

    it('gives a short file whole', () => {
      assert.equal(codeInterface('README.md', '# wordfreq\n\nCounts words.\n'), '# wordfreq\n\nCounts words.\n');
    });
  });
});
