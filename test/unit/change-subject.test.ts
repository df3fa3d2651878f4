/**
 * A change run's commit subjects say what changed: a file's task's first sentence (its first clause when
 * the sentence is too long), and after a test round the problem its bug report named — never "change <path>".
 */
import assert from 'node:assert/strict';
import { changeSubject } from '../../src/capabilities/artifacts/change-subject.ts';
import type { BoardReader, Message } from '../../src/engine/board/index.ts';

function board(payloads: Record<string, unknown>): BoardReader {
  const message = (type: string) => (payloads[type] === undefined ? undefined : ({ type, payload: payloads[type] } as Message));
  return { latest: <T>(type: string) => message(type) as Message<T> | undefined, all: <T>(type: string) => [message(type)].filter(Boolean) as Message<T>[] };
}

const graph = (description: string) => ({ ChangeTaskGraph: { tasks: [{ file: 'src/greet.js', op: 'modify', description }] } });

describe("a change run's commit subject", () => {
  it("is the file's task's first sentence, without its full stop", () => {
    const subject = changeSubject('src/greet.js', false, board(graph('Add an optional { lang } argument to greet. Keep English the default.')));
    assert.equal(subject, 'Add an optional { lang } argument to greet');
  });

  it('is the first clause of a sentence too long for a subject, never cut inside a word', () => {
    const description =
      'Teach the parser to read durations in seconds, so that parseDuration("90s") returns 90000 as the other units do, including the compound forms';
    assert.equal(changeSubject('src/greet.js', false, board(graph(description))), 'Teach the parser to read durations in seconds');
  });

  it('keeps a clause break inside quotes or brackets whole', () => {
    const description = 'Return "a, b" (the list, joined) from join';
    assert.equal(changeSubject('src/greet.js', false, board(graph(description))), 'Return "a, b" (the list, joined) from join');
  });

  it("is the file and the change request's title when the task is written as instructions", () => {
    const reader = (description: string) => board({ ...graph(description), ChangeRequest: { title: 'Add an onRedact option' } });
    // A numbered step, a locating phrase, a lead-in ending with a colon: none says what the change does.
    for (const description of [
      '1. setValue(obj, parts, value): in the non-wildcard branch, return true right after the assignment',
      'In interface RedactOptions, after `strict`, add:\n    onRedact?: (path: string) => void',
      "1. In '#### Options', after the strict bullet, add: `- **onRedact** (optional): called once for each value that was redacted`",
    ])
      assert.equal(changeSubject('src/greet.js', false, reader(description)), 'src/greet.js: Add an onRedact option', description);
  });

  it('takes a short first clause that says what is done, a number with a point no sentence end', () => {
    const description = 'Add the onRedact option; keep everything else (censor arguments, output, cloning, validation) byte-for-byte as today.';
    assert.equal(changeSubject('src/greet.js', false, board(graph(description))), 'Add the onRedact option');
    assert.equal(changeSubject('src/greet.js', false, board(graph('Bump the limit to 2.5 seconds. Then test it.'))), 'Bump the limit to 2.5 seconds');
  });

  it('says what a fix fixed: the problem its bug report named in the file', () => {
    const reader = board({ ...graph('Add a lang option.'), BugReport: { files: [{ path: 'src/greet.js', problem: 'en must say Hello. It says Hi.' }] } });
    assert.equal(changeSubject('src/greet.js', true, reader), 'Fix src/greet.js: en must say Hello');
    assert.equal(changeSubject('src/other.js', true, reader), 'Fix src/other.js');
  });

  it('is null outside a change run', () => {
    assert.equal(changeSubject('src/greet.js', false, board({})), null);
  });
});
