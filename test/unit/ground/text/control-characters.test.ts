/**
 * One definition of a control character for both ways of making outside text safe: `oneLine` removes
 * them from metadata, `cleanLine` shows them as stand-ins in output. Checked over every code point of
 * the Basic Multilingual Plane, so the two cannot drift apart: what one treats as a control, the other
 * does too — but for the invisible marks, which only metadata drops (a terminal shows them as they are).
 */
import assert from 'node:assert/strict';
import { cleanBlock, cleanLine, hasControls } from '../../../../src/ground/terminal-text.ts';
import { CONTROL, INVISIBLE, LAYOUT } from '../../../../src/ground/text/control-characters.ts';
import { oneLine } from '../../../../src/ground/text/one-line.ts';

const invisible = new RegExp(`^[${INVISIBLE}]$`, 'u');
const control = new RegExp(`^[${LAYOUT}${CONTROL}]$`, 'u');

describe('control characters: one definition for metadata and output', () => {
  it('every BMP code point is a control to oneLine exactly when it is one to cleanLine (invisible marks: metadata only)', () => {
    const disagreements: string[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const char = String.fromCharCode(code);
      // Between two letters, so trimming and white space do not hide what oneLine did.
      const removed = oneLine(`a${char}b`) !== `a${char}b`;
      const shown = cleanLine(char) !== char;
      const expected = control.test(char);
      const hex = code.toString(16).padStart(4, '0');
      if (shown !== expected) disagreements.push(`U+${hex}: cleanLine ${shown ? 'replaces' : 'keeps'} it`);
      if (hasControls(char) !== expected) disagreements.push(`U+${hex}: hasControls says ${hasControls(char)}`);
      // White space that is no control (a space, NBSP) collapses to a space in oneLine: not a removal of a control.
      const whiteSpace = /^\s$/u.test(char) && !expected;
      if (!whiteSpace && removed !== (expected || invisible.test(char))) disagreements.push(`U+${hex}: oneLine ${removed ? 'removes' : 'keeps'} it`);
    }
    assert.deepEqual(disagreements, []);
  });

  it('each keeps its own behaviour: metadata drops, output shows, a block keeps its layout', () => {
    const hostile = 'ok\u001b]0;title\u0007\ttab\nline\u202eevil\u061cmark\u200bzw';
    assert.equal(oneLine(hostile), 'ok tab line evil mark zw');
    assert.equal(cleanLine(hostile), 'ok\u241b]0;title\u2407 tab\u240aline\ufffdevil\ufffdmark\u200bzw');
    assert.equal(cleanBlock(hostile), 'ok\u241b]0;title\u2407\ttab\nline\ufffdevil\ufffdmark\u200bzw');
  });
});
