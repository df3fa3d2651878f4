/**
 * The pieces of local repair, one behaviour each: where JSON is looked for (and when it is cut off),
 * how a reply's keys are matched to the schema's, what counts as reasoning, a refusal, or an unclosed
 * code block. The repair corpus (repair-corpus.test.ts) runs them together through the gateway.
 */
import assert from 'node:assert/strict';
import { z } from 'zod';
import type { JsonSchemaNode } from '../../../../../src/capabilities/model/json-schema-node.ts';
import { candidateShapes } from '../../../../../src/capabilities/model/parse/align-to-schema.ts';
import { unclosedFence } from '../../../../../src/capabilities/model/parse/fenced-blocks.ts';
import { balancedSpans, jsonCandidates } from '../../../../../src/capabilities/model/parse/json-candidates.ts';
import { parseJsonReply } from '../../../../../src/capabilities/model/parse/json-reply.ts';
import { isRefusal } from '../../../../../src/capabilities/model/parse/refusal.ts';
import { stripThinking } from '../../../../../src/capabilities/model/parse/result.ts';
import { strictJsonSchema } from '../../../../../src/capabilities/model/strict-json-schema.ts';

describe('local repair, piece by piece', () => {
  describe('balancedSpans', () => {
    it('reads strings, so brackets inside them do not count', () => {
      assert.deepEqual(balancedSpans('x {"a": "}{]"} y'), [{ text: '{"a": "}{]"}', complete: true }]);
    });

    it('takes an apostrophe in a word for an apostrophe, and a quote after { , : for a string', () => {
      assert.deepEqual(balancedSpans("{issues: [it's fine]} and {'a': '}'}"), [
        { text: "{issues: [it's fine]}", complete: true },
        { text: "{'a': '}'}", complete: true },
      ]);
    });

    it('skips comments, braces in them included', () => {
      assert.deepEqual(balancedSpans('{\n // a } here\n "a": 1 /* and { there */\n}'), [
        { text: '{\n // a } here\n "a": 1 /* and { there */\n}', complete: true },
      ]);
    });

    it('marks a span that runs to the end of the text as incomplete, and looks inside it', () => {
      assert.deepEqual(balancedSpans('ok {"a": [1, 2'), [
        { text: '{"a": [1, 2', complete: false },
        { text: '[1, 2', complete: false },
      ]);
      assert.deepEqual(balancedSpans('use { then {"b": 1}'), [
        { text: 'use { then {"b": 1}'.slice(4), complete: false },
        { text: '{"b": 1}', complete: true },
      ]);
      assert.deepEqual(balancedSpans('{"a": "unterminated}'), [{ text: '{"a": "unterminated}', complete: false }]);
    });
  });

  describe('jsonCandidates', () => {
    it('offers fenced JSON first, then spans from the prose, each once', () => {
      const reply = 'Example: {"x": 1}\n```json\n{"y": 2}\n```';
      assert.deepEqual(
        jsonCandidates(reply).map((c) => c.text),
        ['{"y": 2}', '{"x": 1}'],
      );
    });
  });

  describe('parseJsonReply never completes what was cut off', () => {
    it('refuses a cut-off reply that jsonrepair would have closed into a valid artifact', () => {
      const schema = z.object({ approved: z.boolean(), issues: z.array(z.string()) });
      const result = parseJsonReply('{"approved": false, "issues": ["Ties need a sta', schema);
      assert.equal(result.ok, false);
      assert.match(result.ok ? '' : result.error, /cut off before the JSON ended/);
    });
  });

  describe('candidateShapes', () => {
    const schema = strictJsonSchema(z.object({ projectName: z.string(), tags: z.array(z.object({ tagName: z.string() })) })) as JsonSchemaNode;

    it('renames keys that match a schema key but for case and separators, at every depth', () => {
      const [shape] = candidateShapes({ Project_Name: 'p', TAGS: [{ 'tag-name': 't' }] }, schema);
      assert.deepEqual(shape!.value, { projectName: 'p', tags: [{ tagName: 't' }] });
      assert.deepEqual(shape!.changes, ['renamed "Project_Name" to "projectName"', 'renamed "TAGS" to "tags"', 'renamed tags.0."tag-name" to "tagName"']);
    });

    it('leaves a key alone when the reply also has the exact one', () => {
      const [shape] = candidateShapes({ projectName: 'right', ProjectName: 'twin', tags: [] }, schema);
      assert.deepEqual(shape!.value, { projectName: 'right', ProjectName: 'twin', tags: [] });
      assert.deepEqual(shape!.changes, []);
    });

    it('offers the content of a single wrapping key, but not of a key the schema has', () => {
      const wrapped = candidateShapes({ Artifact: { projectName: 'p', tags: [] } }, schema);
      assert.deepEqual(
        wrapped.map((s) => s.value),
        [{ Artifact: { projectName: 'p', tags: [] } }, { projectName: 'p', tags: [] }],
      );
      assert.equal(candidateShapes({ tags: [] }, schema).length, 1);
    });

    it('puts a bare list under the one property of an object that holds only a list', () => {
      const listOnly = strictJsonSchema(z.object({ tasks: z.array(z.string()) })) as JsonSchemaNode;
      assert.deepEqual(
        candidateShapes(['a'], listOnly).map((s) => s.value),
        [['a'], { tasks: ['a'] }],
      );
      assert.equal(candidateShapes(['a'], schema).length, 1, 'not for an object with more properties');
    });

    it('fixes the case of an enum value only when one value fits', () => {
      const enums = strictJsonSchema(z.object({ level: z.enum(['P0', 'P1']) })) as JsonSchemaNode;
      assert.deepEqual(candidateShapes({ level: 'p1' }, enums)[0]!.value, { level: 'P1' });
      assert.deepEqual(candidateShapes({ level: 'high' }, enums)[0]!.value, { level: 'high' });
    });
  });

  describe('stripThinking', () => {
    it('drops reasoning blocks, a reasoning whose opening tag the server dropped, and an unfinished one', () => {
      assert.equal(stripThinking('<think>a</think>\nanswer'), 'answer');
      assert.equal(stripThinking('<thinking>a</thinking> answer'), 'answer');
      assert.equal(stripThinking('reasoning without its opening tag</think>\nanswer'), 'answer');
      assert.equal(stripThinking('answer <think>never closed'), 'answer');
      assert.equal(stripThinking('<think>only reasoning'), '');
    });
  });

  describe('isRefusal', () => {
    it('recognises a short reply that declines', () => {
      assert.equal(isRefusal("I'm sorry, I can't help with that."), true);
      assert.equal(isRefusal('I can’t assist with that request.'), true);
      assert.equal(isRefusal('As an AI, I cannot write files.'), true);
    });

    it('does not call an answer that merely apologises, or mentions declining later, a refusal', () => {
      assert.equal(isRefusal(`Sorry for the wait! ${'Here is a long explanation of the design. '.repeat(20)}`), false);
      assert.equal(isRefusal('The design is fine. I cannot see any problem.'), false);
    });
  });

  describe('unclosedFence', () => {
    it('finds a fence opened after the last complete block', () => {
      assert.deepEqual(unclosedFence('```js\na\n```\n\n```py\nprint('), { lang: 'py' });
      assert.deepEqual(unclosedFence('text\n```\nbody without end'), { lang: '' });
    });

    it('ignores a stray closing fence with nothing after it', () => {
      assert.equal(unclosedFence('```js\na\n```\n```\n'), null);
      assert.equal(unclosedFence('```js\na\n```'), null);
    });
  });
});
