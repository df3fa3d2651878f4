/**
 * The cleaner every printed string from outside goes through: every control character a terminal
 * obeys becomes a visible stand-in — every code point of C0, DEL, C1 and the bidirectional controls,
 * tried one by one — with the layout a block keeps (newline, tab) and the colours sopworks itself
 * prints (SGR) the only exceptions; and file names quoted so a newline never forges a line.
 */
import assert from 'node:assert/strict';
import { cleanBlock, cleanLine, cleanStrings, hasControls, quotedName, terminalSafe } from '../../../src/ground/terminal-text.ts';

const C0 = Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i));
const C1 = Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(0x80 + i));
const BIDI = ['\u061c', '\u200e', '\u200f', '\u2028', '\u2029', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];
/** Anything a terminal may act on: what must never survive. */
const OBEYED = /[\x00-\x1f\x7f\u0080-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('terminal text', () => {
  it('cleanLine: no control character of any kind survives, each shown by a stand-in', () => {
    for (const c of [...C0, '\x7f', ...C1, ...BIDI]) {
      const cleaned = cleanLine(`a${c}b`);
      assert.doesNotMatch(cleaned, OBEYED, `U+${c.charCodeAt(0).toString(16)}`);
      assert.equal([...cleaned].length, 3, 'one stand-in per character, nothing dropped');
    }
    assert.equal(cleanLine('x\x1b]0;title\x07y'), 'x␛]0;title␇y');
    assert.equal(cleanLine('one\ntwo\r\nthree\tfour'), 'one␊two␍␊three four');
    assert.equal(cleanLine('plain text, ünïcödé, 统计 and emoji 🎉'), 'plain text, ünïcödé, 统计 and emoji 🎉');
  });

  it('cleanBlock: keeps newlines and tabs (CRLF as a newline), and nothing else', () => {
    assert.equal(cleanBlock('a\nb\tc\r\nd'), 'a\nb\tc\nd');
    assert.equal(cleanBlock('ok\rAll tests passed'), 'ok␍All tests passed');
    for (const c of [...C0.filter((c) => c !== '\n' && c !== '\t'), '\x7f', ...C1, ...BIDI]) assert.doesNotMatch(cleanBlock(`a${c}b`), OBEYED);
  });

  it('terminalSafe: sopworks’ own colours pass, every other escape sequence is shown inert', () => {
    assert.equal(terminalSafe('\x1b[32m✓\x1b[39m done \x1b[1;31mfailed\x1b[0m'), '\x1b[32m✓\x1b[39m done \x1b[1;31mfailed\x1b[0m');
    assert.equal(terminalSafe('\x1b[2J\x1b[H\x1b]8;;http://x\x07link\x1b]8;;\x07'), '␛[2J␛[H␛]8;;http://x␇link␛]8;;␇');
    assert.equal(terminalSafe('\x1b[?1049h\x1bP+q\x1b\\'), '␛[?1049h␛P+q␛\\');
    assert.equal(terminalSafe('\u009b2J'), '\ufffd2J');
    assert.equal(terminalSafe('line one\nline two'), 'line one\nline two');
  });

  it('quotedName: a plain name bare, any other quoted so it stays one line', () => {
    assert.equal(quotedName('src/count.js'), 'src/count.js');
    assert.equal(quotedName('docs/ünï code.md'), 'docs/ünï code.md');
    assert.equal(quotedName('notes\nFAKE.md'), '"notes\\nFAKE.md"');
    assert.equal(quotedName('say "hi".txt'), '"say \\"hi\\".txt"');
    assert.equal(quotedName(' leading.txt'), '" leading.txt"');
    assert.equal(quotedName('a\u009bb\u202ec'), '"a\\u009bb\\u202ec"');
    for (const name of ['notes\nFAKE.md', 'a\x1b[2Jb', 'x\u2028y']) assert.doesNotMatch(quotedName(name), OBEYED);
  });

  it('cleanStrings: every string of a report, however deep; other values as they were', () => {
    const cleaned = cleanStrings({ a: 'x\ny', n: 3, list: [{ b: '\x1b[2J' }, null, true], when: new Date(0) });
    assert.deepEqual(cleaned, { a: 'x␊y', n: 3, list: [{ b: '␛[2J' }, null, true], when: new Date(0) });
    assert.ok(hasControls('a\tb') && hasControls('\u202e') && !hasControls('plain'));
  });
});
