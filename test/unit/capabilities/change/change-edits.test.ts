/** Search/replace edits: parsed from a reply, applied exactly once or refused with the reason and the nearest lines. */
import assert from 'node:assert/strict';
import { applyEdits, WHOLE_FILE_LINES } from '../../../../src/capabilities/change/apply-edits.ts';
import { parseEditsReply } from '../../../../src/capabilities/model/index.ts';
import type { EditsReply } from '../../../../src/documents/index.ts';

const FILE = 'export function a() {\n  return 1;\n}\n\nexport function b() {\n  return 2;\n}\n';

const edits = (reply: string): EditsReply => {
  const parsed = parseEditsReply(reply, 'src/x.js');
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
  return parsed.value;
};

describe('edits: parsing a reply', () => {
  it('reads several blocks, inside a fence or not', () => {
    const reply =
      'Here:\n```\n<<<<<<< SEARCH\n  return 1;\n=======\n  return 10;\n>>>>>>> REPLACE\n```\n<<<<<<< SEARCH\n  return 2;\n=======\n  return 20;\n>>>>>>> REPLACE\n';
    assert.deepEqual(edits(reply), {
      kind: 'edits',
      path: 'src/x.js',
      edits: [
        { search: '  return 1;', replace: '  return 10;' },
        { search: '  return 2;', replace: '  return 20;' },
      ],
    });
  });

  it('takes one fenced block without markers as the whole file', () => {
    assert.deepEqual(edits('```js\nexport const c = 3;\n```\n'), { kind: 'whole', path: 'src/x.js', content: 'export const c = 3;\n' });
  });

  it('refuses a block cut off, or with an empty SEARCH', () => {
    const cut = parseEditsReply('<<<<<<< SEARCH\n  return 1;\n=======\n  return 10;\n', 'src/x.js');
    assert.ok(!cut.ok && /not closed with >>>>>>> REPLACE/.test(cut.error));
    const empty = parseEditsReply('<<<<<<< SEARCH\n=======\nx\n>>>>>>> REPLACE\n', 'src/x.js');
    assert.ok(!empty.ok && /SEARCH part is empty/.test(empty.error));
  });
});

describe('edits: applying them', () => {
  it('applies each block where its SEARCH text is, keeping the rest of the file', () => {
    const applied = applyEdits(FILE, edits('<<<<<<< SEARCH\n  return 2;\n=======\n  return 2 + 2;\n>>>>>>> REPLACE\n'));
    assert.deepEqual(applied, { ok: true, content: FILE.replace('return 2;', 'return 2 + 2;') });
  });

  it('keeps CRLF line ends', () => {
    const applied = applyEdits(FILE.replace(/\n/g, '\r\n'), edits('<<<<<<< SEARCH\n  return 1;\n}\n=======\n  return 11;\n}\n>>>>>>> REPLACE\n'));
    assert.ok(applied.ok);
    assert.equal(applied.content, FILE.replace('return 1;', 'return 11;').replace(/\n/g, '\r\n'));
  });

  it('refuses a SEARCH text found twice, saying where, and applies nothing', () => {
    const applied = applyEdits(FILE, edits('<<<<<<< SEARCH\n}\n=======\n};\n>>>>>>> REPLACE\n'));
    assert.deepEqual(applied, {
      ok: false,
      reason:
        'block 1 of 1: its SEARCH text is in src/x.js 2 times (at lines 3, 7), so where to apply it is unclear. Include more of the surrounding lines so it matches exactly once. Nothing was applied.',
    });
  });

  it('refuses a SEARCH text not found, showing the nearest lines numbered', () => {
    const applied = applyEdits(
      FILE,
      edits('<<<<<<< SEARCH\nexport function b(x) {\n  return 2;\n=======\nexport function b(x) {\n  return x;\n>>>>>>> REPLACE\n'),
    );
    assert.ok(!applied.ok);
    assert.match(applied.reason, /^block 1 of 1: its SEARCH text is not in src\/x\.js/);
    assert.match(applied.reason, /   5\| export function b\(\) \{\n   6\|   return 2;/);
  });

  it('applies nothing when a later block does not fit', () => {
    const applied = applyEdits(
      FILE,
      edits('<<<<<<< SEARCH\n  return 1;\n=======\n  return 10;\n>>>>>>> REPLACE\n<<<<<<< SEARCH\n  return 3;\n=======\n  return 30;\n>>>>>>> REPLACE\n'),
    );
    assert.ok(!applied.ok && /^block 2 of 2/.test(applied.reason));
  });

  it('takes a whole file only for a small file', () => {
    const big = Array.from({ length: WHOLE_FILE_LINES + 5 }, (_, i) => `line ${i}`).join('\n');
    const applied = applyEdits(big, { kind: 'whole', path: 'src/x.js', content: 'short\n' });
    assert.ok(!applied.ok && /reply with SEARCH\/REPLACE blocks/.test(applied.reason));
    assert.deepEqual(applyEdits(FILE, { kind: 'whole', path: 'src/x.js', content: 'short\n' }), { ok: true, content: 'short\n' });
  });
});

describe("edits: a replacement's own code fences", () => {
  const README = '# x\n\n## Examples\n\n```js\nredact(a)\n```\n\n## API\n';
  const block = (search: string, replace: string) => `<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE`;
  // A new example after the last one: the replacement ends with the fence that closes its own code block.
  const added = '```js\nredact(a)\n```\n\n**Keep a path:**\n```js\nredact(b)\n```';
  const balanced = (text: string) => text.split('\n').filter((l) => /^```/.test(l)).length % 2 === 0;

  it("keeps a replacement's last line when it is a closing fence (trial redact1: the README's new example never closed)", () => {
    const reply = edits(`${block('```js\nredact(a)\n```', added)}\n`);
    assert.deepEqual(reply.kind === 'edits' && reply.edits[0], { search: '```js\nredact(a)\n```', replace: added });
    const applied = applyEdits(README, reply);
    assert.ok(applied.ok);
    assert.ok(balanced(applied.content), applied.content);
    assert.equal(applied.content, README.replace('```js\nredact(a)\n```', added));
  });

  it('keeps it too when the blocks are written inside a fence that closes after them', () => {
    for (const wrapper of ['```', '````', '~~~']) {
      const reply = edits(`Here:\n${wrapper}\n${block('```js\nredact(a)\n```', added)}\n${wrapper}\n`);
      assert.equal(reply.kind === 'edits' && reply.edits[0]!.replace, added, wrapper);
    }
    // Several blocks in one fence: each keeps its own fences, the first one's as much as the last one's.
    const two = edits(`\`\`\`\n${block('# x', '# x\n\n```sh\nnpm i x\n```')}\n${block('```js\nredact(a)\n```', added)}\n\`\`\`\n`);
    assert.deepEqual(two.kind === 'edits' && two.edits.map((e) => e.replace), ['# x\n\n```sh\nnpm i x\n```', added]);
  });

  it("drops only the fence that closes the reply's own wrapper, written before >>>>>>> REPLACE", () => {
    // The wrapper opened before the block is never closed after it: the fence in the block is the wrapper's.
    const reply = edits('```\n<<<<<<< SEARCH\n## API\n=======\n## API\n\nSee below.\n```\n>>>>>>> REPLACE\n');
    assert.deepEqual(reply.kind === 'edits' && reply.edits[0], { search: '## API', replace: '## API\n\nSee below.' });
  });
});
