import assert from 'node:assert/strict';
import { z } from 'zod';
import { parseJsonReply } from '../../../../../src/capabilities/model/parse/json-reply.ts';
import type { ParseResult } from '../../../../../src/capabilities/model/parse/result.ts';
import { Review } from '../../../../../src/documents/index.ts';

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

const approved = { approved: true, issues: [] };

describe('parseJsonReply', () => {
  it('parses bare JSON, unrepaired', () => {
    const result = expectOk(parseJsonReply('{"approved": true, "issues": []}', Review));
    assert.deepEqual(result.value, approved);
    assert.equal(result.repaired, false);
  });

  it('parses JSON surrounded by whitespace as bare', () => {
    const result = expectOk(parseJsonReply('\n  {"approved": false, "issues": ["too vague"]}  \n', Review));
    assert.deepEqual(result.value, { approved: false, issues: ['too vague'] });
    assert.equal(result.repaired, false);
  });

  it('takes the JSON out of a ```json fence', () => {
    const reply = 'Here is my review:\n\n```json\n{"approved": false, "issues": ["no tests"]}\n```\n\nLet me know!';
    assert.deepEqual(expectOk(parseJsonReply(reply, Review)).value, { approved: false, issues: ['no tests'] });
  });

  it('takes the JSON out of an unlabelled fence', () => {
    assert.deepEqual(expectOk(parseJsonReply('```\n{"approved": true, "issues": []}\n```', Review)).value, approved);
  });

  it('finds JSON wrapped in prose', () => {
    const reply = 'Sure! The verdict is {"approved": true, "issues": []} — hope that helps.';
    const result = expectOk(parseJsonReply(reply, Review));
    assert.deepEqual(result.value, approved);
    assert.equal(result.repaired, true, 'extracting from prose counts as a repair');
  });

  it('repairs a trailing comma and says so', () => {
    const result = expectOk(parseJsonReply('{"approved": false, "issues": ["a", "b",],}', Review));
    assert.deepEqual(result.value, { approved: false, issues: ['a', 'b'] });
    assert.equal(result.repaired, true);
  });

  it('ignores a <think> block before the answer, even one holding braces', () => {
    const reply = '<think>The user wants {"approved": false}? No — it looks fine.</think>\n{"approved": true, "issues": []}';
    const result = expectOk(parseJsonReply(reply, Review));
    assert.deepEqual(result.value, approved);
    assert.equal(result.repaired, false);
  });

  it('parses a top-level array', () => {
    assert.deepEqual(expectOk(parseJsonReply('[1, 2, 3]', z.array(z.number()))).value, [1, 2, 3]);
  });

  it('fails on an empty reply, saying so', () => {
    assert.match(expectError(parseJsonReply('', Review)), /empty/);
    assert.match(expectError(parseJsonReply('   \n ', Review)), /empty/);
    assert.match(expectError(parseJsonReply('<think>hmm</think>', Review)), /empty/);
  });

  it('fails on a reply with no JSON at all', () => {
    assert.match(expectError(parseJsonReply('I approve of this design wholeheartedly.', Review)), /no JSON object/);
  });

  it('lists the path of every field that does not match the schema', () => {
    const schema = z.object({ name: z.string(), files: z.array(z.object({ path: z.string() })) });
    const error = expectError(parseJsonReply('{"name": 3, "files": [{"path": "a.js"}, {"path": 7}]}', schema));
    assert.match(error, /does not match the required schema/);
    assert.match(error, /^- name: /m);
    assert.match(error, /^- files\.1\.path: /m);
  });

  it('names a missing required field', () => {
    assert.match(expectError(parseJsonReply('{"approved": true}', Review)), /- issues: /);
  });
});
