/**
 * Model text used as metadata (issue 29, Must 5): a commit subject is one printable line of at most 72
 * characters whatever the model wrote; a title keeps all its words on one line; project and branch
 * names made from text follow the same rules.
 */
import assert from 'node:assert/strict';
import { projectNameFromSpec } from '../../../src/ground/files/index.ts';
import { commitSubject, MAX_SUBJECT, oneLine, shortLine } from '../../../src/ground/text/index.ts';

/** Text as small models and hostile repositories write it. */
const HOSTILE = [
  'wordfreq',
  'x'.repeat(500),
  'docs: product requirements for ' + 'ramble '.repeat(80),
  'title\nsecond line\r\nthird\tline',
  '\u001b]0;pwned\u0007\u001b[2J\u001b[32mAll tests passed\u001b[0m',
  'left\u202eright-to-left override\u2066isolate\u2069',
  'zero\u200bwidth\ufeffmarks\u2028line\u2029paragraph',
  '\u0085next-line\u009bcsi',
  'Ĉu ĉi tio funkcias? 統計文本文件中的詞頻 ' + 'ü'.repeat(100),
  '🙂'.repeat(90),
  '   ',
  '',
  '\n\n\n',
];

const printable = (line: string) => !/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/u.test(line);

describe('model text as metadata', () => {
  it('makes every commit subject one printable line of at most 72 characters, never empty', () => {
    for (const text of HOSTILE) {
      const subject = commitSubject(text);
      assert.ok(Array.from(subject).length <= MAX_SUBJECT, `${JSON.stringify(subject)} is ${Array.from(subject).length} characters`);
      assert.ok(printable(subject), JSON.stringify(subject));
      assert.ok(!/^\s|\s$|\s\s/u.test(subject), `trimmed, single spaces: ${JSON.stringify(subject)}`);
      assert.notEqual(subject, '');
    }
  });

  it('keeps a short subject as it is, and cuts a long one at a word with an ellipsis', () => {
    assert.equal(commitSubject('docs: product requirements for wordfreq'), 'docs: product requirements for wordfreq');
    const long = commitSubject(`docs: product requirements for ${'word '.repeat(30)}`);
    assert.match(long, /^docs: product requirements for (word )+word…$/);
    assert.ok(Array.from(long).length <= 72);
    // One word longer than the line is cut inside it.
    assert.equal(commitSubject('x'.repeat(500)), `${'x'.repeat(71)}…`);
    // Code points, not UTF-16 units: an emoji is one character and is never split in half.
    assert.equal(commitSubject('🙂'.repeat(90)), `${'🙂'.repeat(71)}…`);
    assert.equal(shortLine('', 10, 'fallback'), 'fallback');
  });

  it('keeps every word of a title, on one line', () => {
    const title = `${'a long title '.repeat(20)}\nwith a second line`;
    const line = oneLine(title);
    assert.ok(!line.includes('\n'));
    assert.equal(line.split(' ').length, title.trim().split(/\s+/).length);
    assert.equal(oneLine('\u001b[2J\u001b]0;title\u0007clear\u0000screen'), 'clear screen');
  });

  it('makes project and branch names from text with the same rules: printable, one line, bounded', () => {
    for (const text of HOSTILE) {
      const name = projectNameFromSpec(text);
      assert.match(name, /^[a-z0-9][a-z0-9-]{0,47}$/, JSON.stringify(text));
      assert.ok(printable(`sopworks/${name}`));
    }
  });
});
