/**
 * A change run's commit subjects say what changed, as a maintainer would write them: a conventional type,
 * the change request's title — never a task's text, which is instructions to the Engineer — and the file;
 * a fix says the problem its bug report named.
 */
import assert from 'node:assert/strict';
import { changeSubject, changeTestsSubject } from '../../../../src/capabilities/artifacts/change-subject.ts';
import type { BoardReader, Message } from '../../../../src/engine/board/index.ts';

function board(payloads: Record<string, unknown>): BoardReader {
  const message = (type: string) => (payloads[type] === undefined ? undefined : ({ type, payload: payloads[type] } as Message));
  return { latest: <T>(type: string) => message(type) as Message<T> | undefined, all: <T>(type: string) => [message(type)].filter(Boolean) as Message<T>[] };
}

const change = (title: string, ...files: string[]) => ({
  ChangeRequest: { title },
  // Task texts as a capable model wrote them (trial defu1): instructions, no part of a subject.
  ChangeTaskGraph: { tasks: files.map((file) => ({ file, op: 'modify', description: 'After the defuArrayFn export and before `export type`, insert:' })) },
});

describe("a change run's commit subject", () => {
  it('is the type, the change request and the file: feat for code, docs for a document a user reads', () => {
    const reader = board(change('Add defuArrayReplace', 'src/defu.ts', 'README.md'));
    assert.equal(changeSubject('src/defu.ts', false, reader), 'feat: Add defuArrayReplace (src/defu.ts)');
    assert.equal(changeSubject('README.md', false, reader), 'docs: Add defuArrayReplace (README.md)');
    assert.equal(changeTestsSubject(reader), 'test: Add defuArrayReplace');
  });

  it('shortens a long title at a word, keeping the file whole within 72 characters', () => {
    const reader = board(change('Add an onRedact callback option that reports the path of every redacted or removed value', 'index.d.ts'));
    const subject = changeSubject('index.d.ts', false, reader)!;
    assert.equal(subject, 'feat: Add an onRedact callback option that reports the… (index.d.ts)');
    assert.ok(subject.length <= 72, `${subject.length}`);
  });

  it('says what a fix fixed: the problem its bug report named, else the change', () => {
    const reader = board({
      ...change('Greetings in French', 'src/greet.js'),
      BugReport: { files: [{ path: 'src/greet.js', problem: 'en must say Hello. It says Hi.' }] },
    });
    assert.equal(changeSubject('src/greet.js', true, reader), 'fix: en must say Hello (src/greet.js)');
    assert.equal(changeSubject('src/other.js', true, reader), 'fix: Greetings in French (src/other.js)');
  });

  it('is null outside a change run', () => {
    assert.equal(changeSubject('src/greet.js', false, board({})), null);
    assert.equal(changeTestsSubject(board({})), null);
  });
});
