/** designExcerpt: the part of a design a per-file prompt carries. */
import assert from 'node:assert/strict';
import { classesOfFile, designExcerpt } from '../../../../src/capabilities/artifacts/design-excerpt.ts';
import type { Design } from '../../../../src/documents/index.ts';

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
    assert.deepEqual(excerpt.file, { path: 'src/format.js', purpose: 'formatTable(entries)', executable: false });
    assert.equal(excerpt.language, 'JavaScript');
  });

  it("carries its dependencies' rows, and nothing about files it does not touch", () => {
    const excerpt = designExcerpt(design, 'src/cli.js', ['src/format.js']);
    assert.deepEqual(excerpt.dependencies, [{ path: 'src/format.js', purpose: 'formatTable(entries)' }]);
    assert.doesNotMatch(JSON.stringify(excerpt), /countWords\(texts\) Map|string word/);
  });

  describe('a sequence diagram with blocks', () => {
    const flow = [
      'sequenceDiagram',
      '  actor User',
      '  participant C as Cli',
      '  participant F as Files',
      '  participant Format',
      '  User->>C: wordfreq a.txt',
      '  C->>F: readTextFiles(paths)',
      '  alt every file read',
      '    F-->>C: texts',
      '    loop each text',
      '      C->>WordCount: countWords(text)',
      '    end',
      '    C->>Format: formatTable(entries)',
      '    C-->>User: the table, exit 0',
      '  else a file cannot be read',
      '    F-->>C: error naming the file',
      '    C-->>User: the error, exit 1',
      '  else usage error',
      '    Note over C: no file is read',
      '    C-->>User: usage, exit 2',
      '  end',
      '  opt --verbose',
      '    C->>User: timings',
      '  end',
    ].join('\n');
    const withFlow: Design = { ...design, sequenceDiagram: flow };

    it('keeps each block a message lies in, with every branch line and its end', () => {
      const excerpt = designExcerpt(withFlow, 'src/format.js', []);
      assert.equal(
        excerpt.sequenceDiagram,
        [
          'sequenceDiagram',
          '  participant C as Cli',
          '  participant Format',
          '  alt every file read',
          '    C->>Format: formatTable(entries)',
          '  else a file cannot be read',
          '  else usage error',
          '  end',
        ].join('\n'),
      );
    });

    it("never shows the branches' returns in a row: each stays under its condition", () => {
      const cli: Design = { ...withFlow, files: [...design.files.filter((f) => f.path !== 'src/cli.js'), { path: 'src/cli.js', purpose: 'run(argv)' }] };
      const lines = designExcerpt(cli, 'src/cli.js', []).sequenceDiagram.split('\n');
      const at = (line: string) => lines.indexOf(line);
      assert.ok(at('  actor User') > 0 && at('  participant C as Cli') > 0 && at('  participant F as Files') > 0, lines.join('\n'));
      assert.ok(at('  alt every file read') < at('    C-->>User: the table, exit 0'));
      assert.ok(at('    C-->>User: the table, exit 0') < at('  else a file cannot be read'));
      assert.ok(at('  else a file cannot be read') < at('    C-->>User: the error, exit 1'));
      assert.ok(at('    C-->>User: the error, exit 1') < at('  else usage error'));
      assert.ok(at('  else usage error') < at('    Note over C: no file is read'));
      assert.ok(at('    C-->>User: usage, exit 2') < lines.indexOf('  end'));
      assert.deepEqual(lines.slice(-3), ['  opt --verbose', '    C->>User: timings', '  end']);
      assert.deepEqual(
        lines.filter((l) => /^\s*(alt|else|loop|opt|end)\b/.test(l)).map((l) => l.trim().split(' ')[0]),
        ['alt', 'loop', 'end', 'else', 'else', 'end', 'opt', 'end'],
        'every block it cuts into is whole: opened, branched and closed',
      );
    });
  });

  it('is empty of diagrams for a file no class belongs to', () => {
    const excerpt = designExcerpt(design, 'package.json', []);
    assert.equal(excerpt.classDiagram, '');
    assert.equal(excerpt.sequenceDiagram, '');
  });
});
