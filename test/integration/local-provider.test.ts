/**
 * The local provider on a real llama.cpp engine (node-llama-cpp, CPU) and a real GGUF model with random
 * weights: it writes gibberish, so whatever shape a reply has comes from the grammar. The model is loaded
 * once for the suite.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import type { z } from 'zod';
import {
  artifactGrammar,
  type CallProgress,
  type CompletionRequest,
  chooseThreads,
  jsonGrammar,
  LocalProvider,
  parseCodeReply,
  parseJsonReply,
} from '../../src/capabilities/model/index.ts';
import { askOutputs, loadCompany, sopPrompts } from '../../src/company/index.ts';
import { BugReport, Design, PRD, Review, TaskGraph } from '../../src/documents/index.ts';
import { SopworksError } from '../../src/ground/errors.ts';
import { ROLES, ROOT, SOPS } from '../helpers/paths.ts';

const MODEL = path.join(ROOT, 'test', 'fixtures', 'models', 'llama-2-tiny-random.gguf');
const MAX_OUTPUT = 800;

const ask = (action: string, content: string, output: CompletionRequest['output'], signal?: AbortSignal): CompletionRequest => ({
  call: { role: 'tester', action, key: null },
  messages: [
    { role: 'system', content: 'You write software artifacts.' },
    { role: 'user', content },
  ],
  jsonSchema: null,
  output,
  signal,
});

describe('the local provider (llama.cpp, tiny random model)', function () {
  this.timeout(60_000);
  let provider: LocalProvider;
  const reports: string[] = [];

  before(async () => {
    provider = await LocalProvider.open({
      modelFile: MODEL,
      settings: { contextSize: null, threads: null, gpu: 'off', maxStringChars: 24, maxItems: 3 },
      maxOutputTokens: MAX_OUTPUT,
      maxContinuations: 1,
      temperature: null,
      report: (line) => reports.push(line),
    });
  });
  after(async () => {
    await provider?.close();
  });

  it('says what it chose: the CPU, a thread count for the machine, the context size and the chat template', () => {
    assert.equal(reports.length, 1);
    const threads = chooseThreads();
    assert.match(
      reports[0]!,
      new RegExp(`llama-2-tiny-random\\.gguf \\(2 MB, llama, chat template \\w+\\) on the CPU, ${threads} threads?, context 4096 tokens \\(trained on 4096\\)`),
    );
    assert.equal(provider.contextSize, 4096);
  });

  const artifacts: [string, z.ZodType][] = [
    ['PRD', PRD],
    ['Review', Review],
    ['Design', Design],
    ['TaskGraph', TaskGraph],
    ['BugReport', BugReport],
  ];
  for (const [name, schema] of artifacts) {
    it(`generates a ${name} that is JSON of the schema's shape, by its grammar`, async () => {
      const completion = await provider.complete(ask(`write_${name}`, `Write the ${name}.`, { kind: 'json', schema }));
      assert.equal(completion.finishReason, 'stop', 'the grammar ended the reply, not the output limit');
      const value = JSON.parse(completion.text) as Record<string, unknown>;
      const shape = (schema as unknown as z.ZodObject).shape;
      assert.deepEqual(Object.keys(value).sort(), Object.keys(shape).sort(), 'every property, and no other');
      const parsed = parseJsonReply(completion.text, schema);
      if (!parsed.ok) {
        // Only what a grammar cannot express is left to the parser (which re-asks): patterns, refinements.
        for (const line of parsed.error.split('\n').slice(1)) assert.match(line, /must be a relative path|unsafe/, parsed.error);
      }
      assert.ok(completion.usage && completion.usage.promptTokens > 10 && completion.usage.completionTokens > 0);
    });
  }

  it('keeps every rule the grammar can state exact: diagram keywords, enumerations, non-blank text, lengths', async () => {
    for (let sample = 0; sample < 2; sample++) {
      const completion = await provider.complete(ask(`write_design_${sample}`, 'Design it.', { kind: 'json', schema: Design }));
      const value = JSON.parse(completion.text) as Record<string, any>;
      assert.match(value.classDiagram, /^classDiagram([^A-Za-z0-9_]|$)/);
      assert.match(value.sequenceDiagram, /^sequenceDiagram([^A-Za-z0-9_]|$)/);
      for (const text of [value.summary, value.approach, value.language, ...value.testCommand]) assert.match(text, /^\S/, 'a text that may not be blank');
      for (const text of [value.summary, value.classDiagram]) assert.ok(text.length <= 24, `capped at 24 characters: ${JSON.stringify(text)}`);
      assert.ok(value.files.length >= 1 && value.files.length <= 3);
      for (const dependency of value.dependencies ?? []) assert.ok(['runtime', 'dev'].includes(dependency.kind));
      const parsed = parseJsonReply(completion.text, Design);
      if (!parsed.ok) for (const line of parsed.error.split('\n').slice(1)) assert.match(line, /^- files\.\d+\.path: unsafe path/, parsed.error);
    }
  });

  it("llama.cpp's grammar parser takes the grammar of every artifact a step can ask for", async () => {
    const { getLlama } = await import('node-llama-cpp');
    const llama = await getLlama({ gpu: false, build: 'never', progressLogs: false });
    for (const [name, schema] of Object.entries(askOutputs)) {
      await assert.doesNotReject(llama.createGrammar({ grammar: artifactGrammar(schema, { maxStringChars: 200, maxItems: 8 }) }), name);
    }
    // A part of a schema zod cannot represent is any JSON value.
    await assert.doesNotReject(llama.createGrammar({ grammar: jsonGrammar({ type: 'object', properties: { a: {}, b: { type: 'array' } } }) }));
  });

  it('generates code as one fenced block, under its grammar for the output limit and its continuations together', async () => {
    const completion = await provider.complete(ask('write_code', 'Write src/index.js.', { kind: 'code', path: 'src/index.js' }));
    assert.match(completion.text, /^```[a-zA-Z0-9+#._-]{0,16}\n/);
    const inner = completion.text.split('\n').slice(1, completion.finishReason === 'stop' ? -1 : undefined);
    assert.ok(!inner.some((line) => line.startsWith('```')), 'no line inside the block opens another fence');
    const parsed = parseCodeReply(completion.text, 'src/index.js');
    if (completion.finishReason === 'stop') {
      assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
    } else {
      // The random model never closes the block: it runs to the limit, one generation counted as a continuation.
      assert.equal(completion.usage?.completionTokens, 2 * MAX_OUTPUT);
      assert.equal(completion.continuations, 1);
      assert.ok(!parsed.ok && /cut off/.test(parsed.error), 'the parser says the reply was cut off');
    }
  });

  it('counts usage with the engine, continues a reply cut off at the output limit, and gives up after the continuations', async () => {
    const completion = await provider.complete(ask('free_text', 'Say anything.', undefined));
    assert.equal(completion.finishReason, 'length');
    assert.equal(completion.continuations, 1);
    assert.equal(completion.usage?.completionTokens, 2 * MAX_OUTPUT, 'two generations of exactly the output limit, as the engine counted them');
    assert.ok(completion.usage!.promptTokens > 2 * 10, 'the continuation is counted as a second request with what came before');
  });

  it('stops a generation in flight when its signal is aborted, and answers the next call', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const pending = provider.complete(ask('free_text', 'Say anything at length.', undefined, controller.signal));
    setTimeout(() => controller.abort(new DOMException('stopped by the user', 'AbortError')), 150);
    await assert.rejects(pending, (error: Error) => error.name === 'AbortError');
    assert.ok(Date.now() - started < 5_000, `stopped in ${Date.now() - started} ms, not at the end of the generation`);
    const next = await provider.complete(ask('write_Review', 'Review it.', { kind: 'json', schema: Review }));
    assert.doesNotThrow(() => JSON.parse(next.text));
  });

  it('plans its limits for its context and the SOP, and refuses when the model loads a context that cannot hold the SOP', async () => {
    const prompts = sopPrompts(await loadCompany(SOPS, ROLES), 'a todo app');
    const lines: string[] = [];
    const open = (contextSize: number) =>
      LocalProvider.open({
        modelFile: MODEL,
        settings: { contextSize, threads: 1, gpu: 'off', maxStringChars: null, maxItems: null },
        maxOutputTokens: 4096,
        maxContinuations: 2,
        temperature: null,
        prompts,
        report: (line) => lines.push(line),
      });
    const planned = await open(4096);
    try {
      assert.match(lines.at(-1)!, /^limits for a context of 4096 tokens: replies up to \d+ tokens/);
      assert.ok(planned.limits.replyTokens < 400 && planned.limits.maxContinuations === 0 && planned.limits.maxItems! >= 1);
      assert.equal(planned.contextWindow, 4096);
      assert.equal(planned.replyAllowance, planned.limits.replyTokens);
    } finally {
      await planned.close();
    }
    await assert.rejects(open(1024), (error: unknown) => {
      assert.ok(SopworksError.isInstance(error));
      assert.equal(error.code, 'NO_MODEL');
      assert.match(error.message, /The model's context of 1024 tokens cannot hold the SOP's largest prompt/);
      assert.match(error.hint ?? '', /SOPWORKS_LOCAL_CONTEXT to \d+ or more/);
      return true;
    });
  });

  it('tells its progress as it goes, and reads again only the part of a prompt the call before did not share', async () => {
    const shared = `${'The design says what each file does. '.repeat(40)}\n`;
    const progress: CallProgress[] = [];
    const first = await provider.complete({
      ...ask('write_Review', `${shared}Review a.js.`, { kind: 'json', schema: Review }),
      onProgress: (p) => progress.push(p),
    });
    const second = await provider.complete({
      ...ask('write_Review', `${shared}Review b.js.`, { kind: 'json', schema: Review }),
      onProgress: (p) => progress.push(p),
    });
    const [reading, ...rest] = progress.slice(progress.findLastIndex((p) => p.phase === 'reading'));
    assert.equal(reading!.phase, 'reading');
    assert.ok(reading!.promptTokens! > 0 && reading!.promptTokens! < 40, `only the new end of the prompt is read: ${reading!.promptTokens} tokens`);
    assert.ok(
      rest.length > 0 && rest.every((p, i) => p.phase === 'writing' && p.tokens > (rest[i - 1]?.tokens ?? 0)),
      'the tokens written are told as they come',
    );
    assert.equal(rest.at(-1)!.tokens, second.usage!.completionTokens);
    assert.ok(first.usage!.promptTokens > 300);
    assert.ok(second.usage!.cachedPromptTokens! >= first.usage!.promptTokens - 40, `the shared prefix was reused: ${second.usage!.cachedPromptTokens}`);
    assert.ok(second.usage!.cachedPromptTokens! < second.usage!.promptTokens);
  });

  it("keeps a sequence per role, so a role's next call reads again only its own new part while another role asked in between", async () => {
    const perRole: string[] = [];
    const roles = await LocalProvider.open({
      modelFile: MODEL,
      settings: { contextSize: 2048, threads: null, gpu: 'off', maxStringChars: 24, maxItems: 3 },
      maxOutputTokens: 16,
      maxContinuations: 0,
      temperature: null,
      roles: ['engineer', 'qa'],
      report: (line) => perRole.push(line),
    });
    const design = `${'The design says what each file does. '.repeat(40)}\n`;
    const tests = `${'QA reads the acceptance criteria and writes tests. '.repeat(30)}\n`;
    const call = (provider: LocalProvider, role: string, content: string) =>
      provider.complete({ ...ask('write', content, { kind: 'json', schema: Review }), call: { role, action: 'write', key: null } });
    try {
      assert.match(perRole[0]!, /, a sequence per role \(2\)$/);
      const first = await call(roles, 'engineer', `${design}Write a.js.`);
      await call(roles, 'qa', `${tests}Write the tests.`);
      const again = await call(roles, 'engineer', `${design}Write b.js.`);
      assert.ok(
        again.usage!.cachedPromptTokens! >= first.usage!.promptTokens - 40,
        `the engineer's prefix stayed evaluated: ${again.usage!.cachedPromptTokens}`,
      );
      // One sequence for all (the suite's provider): QA's call in between took the engineer's prefix away.
      await call(provider, 'engineer', `${design}Write a.js.`);
      await call(provider, 'qa', `${tests}Write the tests.`);
      const shared = await call(provider, 'engineer', `${design}Write b.js.`);
      assert.ok(shared.usage!.cachedPromptTokens! < 40, `one sequence kept only the chat template's start: ${shared.usage!.cachedPromptTokens}`);
    } finally {
      await roles.close();
    }
  });

  it('refuses a prompt longer than the context, naming the call and by how much', async () => {
    const long = 'word '.repeat(6000);
    await assert.rejects(provider.complete(ask('write_prd', long, { kind: 'json', schema: PRD })), (error: unknown) => {
      assert.ok(SopworksError.isInstance(error));
      assert.equal(error.code, 'MODEL_ERROR');
      assert.match(
        error.message,
        /The prompt for \{role: tester, action: write_prd, key: \(none\)\} is \d+ tokens; with 256 for the reply it exceeds the local model's context of 4096 tokens by \d+\./,
      );
      assert.match(error.hint ?? '', /SOPWORKS_LOCAL_CONTEXT to at least \d+/);
      return true;
    });
  });
});
