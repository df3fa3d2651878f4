import assert from 'node:assert/strict';
import { parseCodeReply, parseFilesReply } from '../../../../../src/capabilities/model/parse/code-reply.ts';
import { fencedBlocks } from '../../../../../src/capabilities/model/parse/fenced-blocks.ts';
import type { ParseResult } from '../../../../../src/capabilities/model/parse/result.ts';

const expectOk = <T>(result: ParseResult<T>): { value: T; repaired: boolean } => {
  assert.equal(result.ok, true, result.ok ? '' : result.error);
  if (!result.ok) throw new Error('unreachable');
  return result;
};
const expectError = <T>(result: ParseResult<T>): string => {
  assert.equal(result.ok, false, `expected a failure, got ${JSON.stringify(result)}`);
  if (result.ok) throw new Error('unreachable');
  return result.error;
};

const fence = (body: string, lang = 'js') => '```' + lang + '\n' + body + '\n```';

describe('code replies', () => {
  describe('fencedBlocks', () => {
    it('gives each block its language, content and the path written before it', () => {
      const blocks = fencedBlocks(`Intro.\n\nsrc/a.js\n${fence('a();')}\n\nthen\n\n~~~py\nprint(1)\n~~~\n`);
      assert.deepEqual(blocks, [
        { lang: 'js', label: 'src/a.js', content: 'a();\n' },
        { lang: 'py', label: null, content: 'print(1)\n' },
      ]);
    });

    it("keeps a path's own underscores, and takes off emphasis by underscores", () => {
      const reply = `__tests__/a-test.js\n${fence('a();')}\n\npkg/__init__.py\n${fence('', 'py')}\n\n__src/b.js__\n${fence('b();')}\n\n_c.js_\n${fence('c();')}\n`;
      assert.deepEqual(
        fencedBlocks(reply).map((block) => block.label),
        ['__tests__/a-test.js', 'pkg/__init__.py', 'src/b.js', 'c.js'],
      );
    });

    it('reads a path from the info string', () => {
      assert.deepEqual(fencedBlocks('```js src/x.js\nx\n```'), [{ lang: 'js', label: 'src/x.js', content: 'x\n' }]);
      assert.deepEqual(fencedBlocks('```src/y.py\ny\n```'), [{ lang: '', label: 'src/y.py', content: 'y\n' }]);
    });
  });

  describe('parseCodeReply', () => {
    it('takes the one block as the file content, ending in a newline', () => {
      const result = expectOk(parseCodeReply(`Here you go:\n\n${fence('export const x = 1;')}\n`, 'src/x.js'));
      assert.deepEqual(result.value, { path: 'src/x.js', content: 'export const x = 1;\n' });
      assert.equal(result.repaired, false);
    });

    it('keeps the content exactly, inner blank lines and indentation included', () => {
      const body = 'function f() {\n  return 1;\n}\n\n\nexport { f };';
      assert.equal(expectOk(parseCodeReply(fence(body), 'f.js')).value.content, body + '\n');
    });

    it('ignores a <think> block holding a code fence', () => {
      const reply = `<think>maybe:\n${fence('wrong();')}\n</think>\n${fence('right();')}`;
      assert.equal(expectOk(parseCodeReply(reply, 'a.js')).value.content, 'right();\n');
    });

    it('takes a README holding four-backtick fences in a five-backtick block, and says so when it was put in four (trial mdpreview50b)', () => {
      const readme = '# Fences\n\nWrite a fence inside a fence:\n\n````md\n```js\nx();\n```\n````\n';
      assert.equal(expectOk(parseCodeReply(`\`\`\`\`\`markdown\n${readme}\`\`\`\`\`\n`, 'README.md')).value.content, readme);
      const error = expectError(parseCodeReply(`\`\`\`\`markdown\n${readme}\`\`\`\`\n`, 'README.md'));
      assert.match(error, /a block whose fence is longer than any of them: ```` around ```, ````` around ````/);
    });

    it('fails when there is no fenced block', () => {
      assert.match(expectError(parseCodeReply('export const x = 1;', 'src/x.js')), /no fenced code block.*src\/x\.js/);
    });

    it('fails on an empty reply', () => {
      assert.match(expectError(parseCodeReply('  ', 'src/x.js')), /empty/);
    });

    it('picks the block labelled with the expected path when there are two', () => {
      const reply = `Usage example:\n\n${fence('run();')}\n\nsrc/x.js\n${fence('export function run() {}')}\n`;
      const result = expectOk(parseCodeReply(reply, 'src/x.js'));
      assert.equal(result.value.content, 'export function run() {}\n');
      assert.equal(result.repaired, true);
    });

    it('matches the label after normalising it (./src/x.js, **src/x.js**)', () => {
      const reply = `**./src/other.js**\n${fence('other();')}\n\n**./src/x.js**\n${fence('mine();')}`;
      assert.equal(expectOk(parseCodeReply(reply, 'src/x.js')).value.content, 'mine();\n');
    });

    it('fails on two unlabelled blocks, asking for exactly one', () => {
      const error = expectError(parseCodeReply(`${fence('a();')}\n\nand\n\n${fence('b();')}`, 'src/x.js'));
      assert.match(error, /2 code blocks/);
      assert.match(error, /exactly one/);
    });

    it('fails on two blocks labelled with other paths', () => {
      const error = expectError(parseCodeReply(`src/a.js\n${fence('a();')}\n\nsrc/b.js\n${fence('b();')}`, 'src/x.js'));
      assert.match(error, /exactly one/);
    });
  });

  describe('parseFilesReply', () => {
    it('reads a path line before each fence, in the usual spellings', () => {
      const reply = [
        'Here are the tests.',
        '',
        'test/a.test.js',
        fence("test('a', () => {});"),
        '',
        '**test/b.test.js**',
        fence("test('b', () => {});"),
        '',
        '### `test/c.test.js`',
        fence("test('c', () => {});"),
      ].join('\n');
      assert.deepEqual(expectOk(parseFilesReply(reply)).value, [
        { path: 'test/a.test.js', content: "test('a', () => {});\n" },
        { path: 'test/b.test.js', content: "test('b', () => {});\n" },
        { path: 'test/c.test.js', content: "test('c', () => {});\n" },
      ]);
    });

    it('normalises the paths it is given', () => {
      assert.deepEqual(expectOk(parseFilesReply(`File: ./test//d.test.js\n${fence('d')}`)).value, [{ path: 'test/d.test.js', content: 'd\n' }]);
    });

    it('fails on a block with no path, naming the block number', () => {
      const reply = `test/a.test.js\n${fence('a')}\n\nAnd another one:\n${fence('b')}`;
      assert.match(expectError(parseFilesReply(reply)), /code block 2 has no file path/);
    });

    it('fails on an unsafe path', () => {
      const error = expectError(parseFilesReply(`../x.js\n${fence('evil()')}`));
      assert.match(error, /code block 1 has an unsafe path "\.\.\/x\.js"/);
      assert.match(error, /leaves the project/);
    });

    it('fails on a path into .git', () => {
      assert.match(expectError(parseFilesReply(`.git/hooks/pre-commit.sh\n${fence('evil', 'sh')}`)), /unsafe path.*reserved/);
    });

    it('fails on a file given twice', () => {
      const reply = `test/a.test.js\n${fence('one')}\n\n./test/a.test.js\n${fence('two')}`;
      assert.match(expectError(parseFilesReply(reply)), /test\/a\.test\.js appears twice/);
    });

    it('fails on a reply with no block, or an empty one', () => {
      assert.match(expectError(parseFilesReply('test/a.test.js')), /no fenced code block/);
      assert.match(expectError(parseFilesReply('')), /empty/);
    });
  });
});
