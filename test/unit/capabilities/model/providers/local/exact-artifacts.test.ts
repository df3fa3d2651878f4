/**
 * What can be exact is exact (issue 29, Must 3): the constraints the artifact schemas state — fixed
 * keywords, enumerations, lengths, non-blank text — are GBNF rules of the local engine's grammar and
 * travel in the JSON Schema a server gets; a diagram that lost its keyword is mended before validation,
 * never re-asked. (The grammar on the real engine: local-provider.test.ts.)
 */
import assert from 'node:assert/strict';
import { z } from 'zod';
import { parseJsonReply } from '../../../../../../src/capabilities/model/parse/json-reply.ts';
import { artifactGrammar } from '../../../../../../src/capabilities/model/providers/local/artifact-grammar.ts';
import { jsonGrammar } from '../../../../../../src/capabilities/model/providers/local/json-grammar.ts';
import { serverJsonSchema, strictJsonSchema } from '../../../../../../src/capabilities/model/strict-json-schema.ts';
import { askOutputs } from '../../../../../../src/company/index.ts';
import { Design } from '../../../../../../src/documents/index.ts';
import { keywordOfPattern, keywordPattern } from '../../../../../../src/ground/text/index.ts';

const design = {
  summary: 'Counts words.',
  approach: 'Read, split, count.',
  language: 'JavaScript',
  testCommand: ['node', '--test'],
  runCommand: ['node', 'src/cli.js'],
  smokeCommand: null,
  dependencies: [],
  files: [{ path: 'src/cli.js', purpose: 'the CLI' }],
  classDiagram: 'classDiagram\n  class Counter',
  sequenceDiagram: 'sequenceDiagram\n  User->>CLI: run',
};
const replyWith = (fields: Record<string, unknown>) => JSON.stringify({ ...design, ...fields });

describe('exact artifacts', () => {
  it('states a diagram keyword once, as a pattern zod checks and the grammar and the repairs read', () => {
    const pattern = keywordPattern('classDiagram');
    assert.equal(keywordOfPattern(pattern.source), 'classDiagram');
    for (const ok of ['classDiagram', 'classDiagram\n  class A', 'classDiagram;', 'classDiagram\u2028x']) assert.ok(pattern.test(ok), ok);
    for (const bad of ['classDiagramX', ' classDiagram', 'graph TD', 'ClassDiagram', '']) assert.ok(!pattern.test(bad), bad);
    assert.equal(keywordOfPattern('^[a-z]+$'), null);
    const json = strictJsonSchema(Design) as { properties: Record<string, { pattern?: string }> };
    assert.equal(json.properties.classDiagram!.pattern, keywordPattern('classDiagram').source, 'the pattern travels to OpenAI too');
  });

  it('makes a GBNF rule per constraint: keyword, enumeration, lengths, non-blank text, items', () => {
    const grammar = jsonGrammar(
      serverJsonSchema(
        z.object({
          kind: z.enum(['runtime', 'dev']),
          name: z.string().trim().min(1),
          code: z.string().max(8),
          diagram: z.string().regex(keywordPattern('classDiagram')),
          tags: z.array(z.string()).min(1).max(3),
          note: z.string().nullable(),
        }),
        null,
      ) as never,
    );
    assert.match(grammar, /"\\"runtime\\"" \| "\\"dev\\""/);
    assert.match(grammar, /"\\"" lead char\* "\\""/, 'a text that may not be blank starts with a character that is not white space');
    assert.match(grammar, /"\\"" char\{0,8\} "\\""/);
    assert.match(grammar, /"\\"" "classDiagram" \(after-keyword char\*\)\? "\\""/);
    assert.match(grammar, /"\[" r\d+ \(\(?"," r\d+\)?\)\{0,2\} "\]"|"\[" r\d+ \("," r\d+\)\{0,2\} "\]"/);
    assert.match(grammar, /^lead ::= \[\^"\\\\\\x7F\\x00-\\x20\]/m);
  });

  it('builds a grammar for every artifact a step can ask for, capped where the schema sets no limit', () => {
    for (const [name, schema] of Object.entries(askOutputs)) {
      const grammar = artifactGrammar(schema, { maxStringChars: 300, maxItems: 4 });
      assert.match(grammar, /^root ::= /, name);
      assert.doesNotMatch(grammar, /char\*/, `${name}: every string is bounded`);
    }
  });

  it('sends a server every length and the caps, and OpenAI only what its strict mode takes', () => {
    const server = serverJsonSchema(Design, { maxStringChars: 500, maxItems: 6 }) as any;
    assert.equal(server.properties.summary.minLength, 1);
    assert.equal(server.properties.summary.maxLength, 500);
    assert.equal(server.properties.files.minItems, 1);
    assert.equal(server.properties.files.maxItems, 6);
    assert.equal(server.properties.classDiagram.pattern, keywordPattern('classDiagram').source);
    const openai = strictJsonSchema(Design) as any;
    assert.equal(openai.properties.summary.minLength, undefined);
    assert.equal(openai.properties.files.minItems, undefined);
  });

  describe('a diagram that lost its keyword is mended, not re-asked', () => {
    const mended: [string, string, string][] = [
      ['the keyword left out', 'class Counter {\n  +count(text) Map\n}', 'classDiagram\nclass Counter {\n  +count(text) Map\n}'],
      ['a mermaid fence around it', '```mermaid\nclassDiagram\n  class Counter\n```', 'classDiagram\n  class Counter'],
      ['a bare fence and no keyword', '```\n  class Counter\n```', 'classDiagram\nclass Counter'],
      ['relations first', 'Counter <|-- WordCounter\nCounter : +count()', 'classDiagram\nCounter <|-- WordCounter\nCounter : +count()'],
      ['a member first', 'Counter : +Map counts', 'classDiagram\nCounter : +Map counts'],
      ['the keyword in another case', 'ClassDiagram\n  class Counter', 'classDiagram\n  class Counter'],
      ['white space before it', '\n\n  classDiagram\n  class Counter', 'classDiagram\n  class Counter'],
    ];
    for (const [what, written, expected] of mended) {
      it(what, () => {
        const parsed = parseJsonReply(replyWith({ classDiagram: written }), Design);
        assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
        assert.equal((parsed.value as { classDiagram: string }).classDiagram, expected);
      });
    }

    it('mends a sequence diagram the same way', () => {
      for (const written of [
        'User->>CLI: wordfreq a.txt\nCLI-->>User: counts',
        'participant User\nUser->>CLI: run',
        '```mermaid\nsequenceDiagram\nA->>B: x\n```',
      ]) {
        const parsed = parseJsonReply(replyWith({ sequenceDiagram: written }), Design);
        assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
        assert.match((parsed.value as { sequenceDiagram: string }).sequenceDiagram, /^sequenceDiagram\n(participant User|User->>CLI|A->>B)/);
      }
    });

    it('leaves prose, another kind of diagram, or an empty one to the re-ask', () => {
      for (const written of [
        'graph TD\n  A-->B',
        'sequenceDiagram\n  A->>B: hi',
        'flowchart LR\n  a-->b',
        'WordCounter has a count() method',
        '',
        'The class diagram shows a Counter.',
      ]) {
        const parsed = parseJsonReply(replyWith({ classDiagram: written }), Design);
        assert.ok(!parsed.ok, written);
        assert.match(parsed.error, /classDiagram must be mermaid text starting with "classDiagram"/);
      }
    });
  });
});
