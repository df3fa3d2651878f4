/**
 * Servers that answer, but not with a chat completion — as a wrong base URL, a proxy or a login page
 * does — named through the real client and provider, and caught by the start-up check before anything
 * is written: what came back, and its likely cause. A 5xx quotes the server's own text; a base URL
 * missing /v1 says so; a server that accepted the connection but never answered is not "unreachable".
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createOpenAIProvider, createProvider, readSettings } from '../../src/capabilities/model/index.ts';
import { SopworksError } from '../../src/ground/errors.ts';
import { sopworks } from '../helpers/in-process.ts';
import { type FakeOpenAI, type FakeReply, startFakeOpenAI } from '../helpers/openai-server.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const FAST = { SOPWORKS_RETRY_BASE_MS: '10', SOPWORKS_RETRY_MAX_MS: '2000', SOPWORKS_TIMEOUT_MS: '500', SOPWORKS_MAX_RETRIES: '1' };
const call = { role: 'product-manager', action: 'write_prd', key: null };

const NOT_COMPLETIONS: { name: string; reply: FakeReply; says: RegExp; cause: RegExp }[] = [
  {
    name: 'an HTML page (a proxy login)',
    reply: { body: '<!DOCTYPE html><html><head><title>Sign in - Corporate Proxy</title></head><body>Log in</body></html>', contentType: 'text/html' },
    says: /an HTML page \("Sign in - Corporate Proxy"\)/,
    cause: /proxy, captive portal or login page/,
  },
  {
    name: 'an event stream nobody asked for',
    reply: { body: 'data: {"choices":[{"delta":{"content":"Hi"}}]}\n\ndata: [DONE]\n\n', contentType: 'text/event-stream' },
    says: /an event stream \(data: lines\), though no stream was asked for/,
    cause: /force streaming/,
  },
  { name: 'no choices', reply: { body: '{"id":"x","object":"chat.completion"}' }, says: /JSON without "choices" \(keys: id, object\)/, cause: /ends in \/v1/ },
  { name: 'an empty choices list', reply: { body: '{"choices":[]}' }, says: /an empty "choices" list/, cause: /no answer/ },
  { name: 'a bare string', reply: { body: '"hello"' }, says: /a bare JSON string \("hello"\)/, cause: /OpenAI-compatible API/ },
  { name: 'an empty body', reply: { body: '' }, says: /an empty body/, cause: /without a reply/ },
];

describe('servers that misbehave', function () {
  this.timeout(30_000);
  let server: FakeOpenAI | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });
  after(removeTempDirs);

  const settingsFor = (url: string, env: Record<string, string> = {}) =>
    readSettings({ OPENAI_BASE_URL: url, OPENAI_API_KEY: 'sk-test', SOPWORKS_MODEL: 'test-model', ...FAST, ...env });
  const complete = async (url: string, env: Record<string, string> = {}) => {
    const provider = await createOpenAIProvider(settingsFor(url, env).model);
    return provider.complete({ call, messages: [{ role: 'user', content: 'hi' }], jsonSchema: null });
  };
  const failure = async (promise: Promise<unknown>): Promise<SopworksError> => {
    try {
      await promise;
    } catch (error) {
      assert.ok(SopworksError.isInstance(error), `a SopworksError, not ${(error as Error)?.stack ?? String(error)}`);
      return error;
    }
    assert.fail('expected a failure');
  };

  describe('a 200 that is not a chat completion, during a run', () => {
    for (const c of NOT_COMPLETIONS) {
      it(`names ${c.name} and its likely cause, without retrying it`, async () => {
        server = await startFakeOpenAI({ replies: [c.reply, c.reply] });
        const error = await failure(complete(server.url));
        assert.match(error.message, c.says);
        assert.match(error.message, c.cause);
        assert.match(error.message, /during \{role: product-manager, action: write_prd/);
        assert.doesNotMatch(error.message, /Cannot read properties|undefined/);
        assert.equal(server.chatRequests().length, 1, 'the same answer would come again: not retried');
      });
    }
  });

  describe('the start-up check (a small real chat request)', () => {
    const check = (url: string, env: Record<string, string> = {}) => createProvider({ kind: 'openai' }, null, settingsFor(url, env), undefined);

    for (const c of NOT_COMPLETIONS.slice(0, 2)) {
      it(`refuses an endpoint that answers it with ${c.name}`, async () => {
        server = await startFakeOpenAI({ replies: [], startUpCheck: c.reply });
        const error = await failure(check(server.url));
        assert.match(error.message, c.says);
        assert.match(error.message, /Nothing was written/);
        assert.equal(server.startUpChecks().length, 1);
        assert.equal(server.startUpChecks()[0]!.body.max_tokens, 1, 'a small request');
      });
    }

    it('passes a working endpoint, taking nothing from the run', async () => {
      server = await startFakeOpenAI({ replies: [] });
      await check(server.url);
      assert.equal(server.startUpChecks().length, 1);
      assert.equal(server.chatRequests().length, 0);
    });

    it('says a base URL is missing its /v1, not that the model is unknown', async () => {
      server = await startFakeOpenAI({ replies: [] });
      const root = server.url.replace(/\/v1$/, '');
      const error = await failure(check(root));
      assert.match(error.message, /has no chat API at that address \(404: 404 page not found\)/);
      assert.doesNotMatch(error.message, /does not know model/);
      assert.match(error.hint ?? '', new RegExp(`OPENAI_BASE_URL=${root.replace(/[.]/g, '\\.')}/v1`));
    });

    it("names an unknown model with the server's words when the URL is right", async () => {
      server = await startFakeOpenAI({ replies: [], startUpCheck: { status: 404, error: { message: 'model "test-model" not found, try pulling it first' } } });
      const error = await failure(check(server.url));
      assert.match(error.message, /does not know model "test-model" \(404: model "test-model" not found, try pulling it first\)/);
    });

    it("shows a 5xx's own error text", async () => {
      server = await startFakeOpenAI({ replies: [], startUpCheck: { status: 500, error: { message: 'CUDA error: out of memory' } } });
      const error = await failure(check(server.url));
      assert.match(error.message, /failed a small chat request \(500: CUDA error: out of memory\)/);
    });

    it('does not call a server that accepted the connection but never answered unreachable', async () => {
      server = await startFakeOpenAI({ replies: [], startUpCheck: { silent: true } });
      const error = await failure(check(server.url, { SOPWORKS_TIMEOUT_MS: '300' }));
      assert.match(
        error.message,
        /accepted the connection but did not answer a small chat request within 0 s|accepted the connection but did not answer a small chat request/,
      );
      assert.doesNotMatch(error.message, /Cannot reach|unreachable/i);
      assert.match(error.hint ?? '', /SOPWORKS_TIMEOUT_MS/);
    });

    it('at the command line: exit 2 and no project written', async () => {
      server = await startFakeOpenAI({ replies: [], startUpCheck: NOT_COMPLETIONS[0]!.reply });
      const cwd = await tempDir();
      const result = await sopworks(['run', 'a todo app', '--out', cwd], { cwd, env: { OPENAI_BASE_URL: server.url, SOPWORKS_MODEL: 'test-model' } });
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /answered a chat request with an HTML page \("Sign in - Corporate Proxy"\)/);
      assert.deepEqual(
        fs.readdirSync(cwd).filter((f) => !f.startsWith('.')),
        [],
        'nothing written',
      );
      assert.ok(!fs.existsSync(path.join(cwd, 'todo')));
    });
  });

  describe('errors during a run', () => {
    it("quotes a 5xx's own text once the retries are spent", async () => {
      const down: FakeReply = { status: 502, body: '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>', contentType: 'text/html' };
      server = await startFakeOpenAI({ replies: [down, down] });
      const error = await failure(complete(server.url));
      assert.match(error.message, /kept failing .*502 from the endpoint \(2 attempts\); the server said: "502 Bad Gateway"/);
    });

    it('says a base URL is missing its /v1 when a chat request gets a 404 there', async () => {
      server = await startFakeOpenAI({ replies: [] });
      const error = await failure(complete(server.url.replace(/\/v1$/, '')));
      assert.match(error.message, /has no chat API at that address \(404\)/);
      assert.match(error.hint ?? '', /\/v1/);
    });

    it('does not call a server that broke off every answer unreachable', async () => {
      server = await startFakeOpenAI({
        replies: [
          { content: 'x', resetMidResponse: true },
          { content: 'x', resetMidResponse: true },
        ],
      });
      const error = await failure(complete(server.url));
      assert.match(error.message, /accepted the connection but closed it without an answer/);
      assert.doesNotMatch(error.message, /Cannot reach/);
    });
  });
});
