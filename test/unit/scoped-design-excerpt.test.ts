/** designExcerpt: the part of a design a per-file prompt carries. */
import assert from 'node:assert/strict';
import { classesOfFile, designExcerpt } from '../../src/capabilities/artifacts/design-excerpt.ts';
import type { Design } from '../../src/documents/schemas.ts';

const design: Design = {
  summary: 'A word counter.',
  approach: 'Small pure modules behind a CLI.',
  language: 'JavaScript',
  testCommand: ['node', '--test'],
  runCommand: ['node', 'src/cli.js'],
  files: [
    { path: 'src/word-count.js', purpose: 'countWords(texts), returning Entry records' },
    { path: 'src/format.js', purpose: 'formatTable(entries)' },
    { path: 'src/cli.js', purpose: 'run(argv)' },
  ],
  classDiagram: [
    'classDiagram',
    '  class WordCount {',
    '    +countWords(texts) Map',
    '  }',
    '  class Entry {',
    '    +string word',
    '  }',
    '  class Format {',
    '    +formatTable(entries) string',
    '  }',
    '  class Cli',
    '  WordCount ..> Entry',
    '  Cli ..> WordCount',
    '  Cli ..> Format',
  ].join('\n'),
  sequenceDiagram: [
    'sequenceDiagram',
    '  actor User',
    '  User->>Cli: wordfreq a.txt',
    '  Cli->>WordCount: countWords(texts)',
    '  Cli->>Format: formatTable(entries)',
  ].join('\n'),
};

describe('the design excerpt of a file', () => {
  it("finds a file's classes by its base name and by the classes its purpose names", () => {
    assert.deepEqual(classesOfFile(design, 'src/word-count.js'), ['WordCount', 'Entry']);
    assert.deepEqual(classesOfFile(design, 'src/format.js'), ['Format']);
  });

  it('keeps the diagram lines about its classes and leaves out the others', () => {
    const excerpt = designExcerpt(design, 'src/format.js', []);
    assert.equal(excerpt.classDiagram, ['classDiagram', '  class Format {', '    +formatTable(entries) string', '  }', '  Cli ..> Format'].join('\n'));
    assert.equal(excerpt.sequenceDiagram, ['sequenceDiagram', '  Cli->>Format: formatTable(entries)'].join('\n'));
    assert.deepEqual(excerpt.file, { path: 'src/format.js', purpose: 'formatTable(entries)' });
    assert.equal(excerpt.language, 'JavaScript');
  });

  it("carries its dependencies' rows, and nothing about files it does not touch", () => {
    const excerpt = designExcerpt(design, 'src/cli.js', ['src/format.js']);
    assert.deepEqual(excerpt.dependencies, [{ path: 'src/format.js', purpose: 'formatTable(entries)' }]);
    assert.doesNotMatch(JSON.stringify(excerpt), /countWords\(texts\) Map|string word/);
  });

  it('is empty of diagrams for a file no class belongs to', () => {
    const excerpt = designExcerpt(design, 'package.json', []);
    assert.equal(excerpt.classDiagram, '');
    assert.equal(excerpt.sequenceDiagram, '');
  });
});
