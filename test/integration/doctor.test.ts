/**
 * `sopworks doctor` against local servers that each answer as a real kind of endpoint does: one that
 * supports everything (OpenAI), one that rejects json_object (LM Studio), one that rejects json_schema
 * (an older llama.cpp), one without usage, a wrong key, a model name with a typo, an HTML login page, a
 * base URL without /v1, a model that ignores the schema, a server that never answers, and none at all.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { sopworks } from '../helpers/in-process.ts';
import { ROOT } from '../helpers/paths.ts';
import { runCli } from '../helpers/run-cli.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

interface Behaviour {
  key?: string;
  models?: Record<string, unknown>[];
  /** Every route answers a login page. */
  loginPage?: boolean;
  rejectSchema?: boolean;
  rejectObject?: boolean;
  noUsage?: boolean;
  /** The model's answer to the JSON check: valid by default. */
  sloppy?: boolean;
  /** Accepts connections and never answers. */
  hang?: boolean;
}

const VALID = JSON.stringify({ city: 'Paris', population: 2102650, landmarks: ['Eiffel Tower', 'Louvre'] });

async function serve(behaviour: Behaviour): Promise<{ url: string; close: () => Promise<void>; requests: { path: string; body: any }[] }> {
  const requests: { path: string; body: any }[] = [];
  const server = http.createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const route = new URL(req.url ?? '/', 'http://x').pathname;
    const body = raw ? JSON.parse(raw) : null;
    requests.push({ path: route, body });
    if (behaviour.hang) return;
    const json = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    if (behaviour.loginPage) {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end('<!DOCTYPE html><html><head><title>Sign in</title></head><body>Corporate proxy login</body></html>');
    }
    if (!route.startsWith('/v1/')) return json(404, { error: { message: `Unexpected endpoint or method. (${req.method} ${route})` } });
    if (behaviour.key && req.headers.authorization !== `Bearer ${behaviour.key}`)
      return json(401, { error: { message: 'Incorrect API key provided: sk-wrong.', code: 'invalid_api_key' } });
    if (route === '/v1/models') return json(200, { object: 'list', data: behaviour.models ?? [{ id: 'gpt-4o-mini', object: 'model' }] });
    if (route !== '/v1/chat/completions') return json(404, { error: { message: `no route ${route}` } });
    const known = (behaviour.models ?? [{ id: 'gpt-4o-mini' }]).some((m) => m.id === body.model);
    if (!known)
      return json(404, { error: { message: `The model \`${body.model}\` does not exist or you do not have access to it.`, code: 'model_not_found' } });
    const type = body.response_format?.type;
    if (type === 'json_object' && behaviour.rejectObject) return json(400, { error: "'response_format.type' must be 'json_schema' or 'text'" });
    if (type === 'json_schema' && behaviour.rejectSchema)
      return json(400, { error: { message: 'json_schema is not supported by this server', type: 'invalid_request_error' } });
    const wantsJson = /JSON object/.test(body.messages.at(-1).content);
    const content = !wantsJson ? 'ready' : behaviour.sloppy ? 'Paris is the capital of France, home to about two million people.' : VALID;
    return json(200, {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      ...(behaviour.noUsage ? {} : { usage: { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 } }),
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A loopback port nothing listens on: one the system just handed out and took back. */
const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('sopworks doctor (local servers answering as real endpoints do)', function () {
  this.timeout(60_000);
  const closers: (() => Promise<void>)[] = [];
  after(async () => {
    for (const close of closers) await close();
    await removeTempDirs();
  });

  const doctor = async (behaviour: Behaviour | null, env: Record<string, string> = {}, args: string[] = [], suffix = '/v1') => {
    let url = `http://127.0.0.1:${await closedPort()}`;
    let requests: { path: string; body: any }[] = [];
    if (behaviour) {
      const server = await serve(behaviour);
      closers.push(server.close);
      url = server.url;
      requests = server.requests;
    }
    const result = await sopworks(['doctor', ...args], {
      cwd: ROOT,
      env: { OPENAI_BASE_URL: `${url}${suffix}`, OPENAI_API_KEY: 'sk-test', SOPWORKS_MODEL: 'gpt-4o-mini', ...env },
    });
    return { ...result, requests };
  };

  it('finds an endpoint that supports everything and says a run would work (exit 0)', async () => {
    const { code, stdout, requests } = await doctor({ models: [{ id: 'gpt-4o-mini', context_length: 128000 }] });
    assert.equal(code, 0, stdout);
    for (const line of [
      /✓ reachable\s+GET \/models answered in \d+ ms/,
      /✓ key accepted/,
      /✓ model known\s+gpt-4o-mini is served/,
      /· context window\s+128000 tokens/,
      /✓ chat\s+answered in \d+ ms/,
      /✓ usage reported/,
      /✓ json_schema\s+supported/,
      /✓ json_object\s+supported/,
      /✓ JSON compliance\s+the reply matched the schema it was given \(json_schema\)/,
      /A run would work/,
    ]) {
      assert.match(stdout, line);
    }
    const formats = requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => r.body.response_format?.type ?? 'none');
    assert.deepEqual(formats, ['none', 'json_schema', 'json_object'], 'a real request for each check');
  });

  it('an endpoint that rejects json_object (LM Studio): fine, json_schema is used', async () => {
    const { code, stdout } = await doctor({ rejectObject: true });
    assert.equal(code, 0, stdout);
    assert.match(stdout, /! json_object\s+not supported: 400: 'response_format.type' must be 'json_schema' or 'text'/);
    assert.doesNotMatch(stdout, /SOPWORKS_STRUCTURED_OUTPUT/);
  });

  it('an endpoint that rejects json_schema (an older llama.cpp): says to set json_object', async () => {
    const { code, stdout } = await doctor({ rejectSchema: true, models: [{ id: 'gpt-4o-mini', meta: { n_ctx_train: 4096 } }] });
    assert.equal(code, 0, stdout);
    assert.match(stdout, /! json_schema\s+not supported: 400: json_schema is not supported by this server/);
    assert.match(stdout, /→ set SOPWORKS_STRUCTURED_OUTPUT=json_object/);
    assert.match(stdout, /context window\s+4096 tokens/);
  });

  it('an endpoint without usage: warns that tokens are counted locally', async () => {
    const { code, stdout } = await doctor({ noUsage: true });
    assert.equal(code, 0);
    assert.match(stdout, /! usage reported\s+the server reports no usage: sopworks counts tokens with its own tokenizer/);
  });

  it('a wrong key: exit 1, naming the key setting', async () => {
    const { code, stdout } = await doctor({ key: 'sk-right' }, { OPENAI_API_KEY: 'sk-wrong' });
    assert.equal(code, 1);
    assert.match(stdout, /✗ key accepted\s+the endpoint refused the key \(401: Incorrect API key provided: sk-wrong\.\); check OPENAI_API_KEY/);
  });

  it('no key set where the endpoint asks for one: says none was sent and what to set, not that the key was refused', async () => {
    const { code, stdout } = await doctor({ key: 'sk-right' }, { OPENAI_API_KEY: '' });
    assert.equal(code, 1);
    assert.match(stdout, /✗ key accepted\s+no key was sent, and the endpoint asks for one \(401: Incorrect API key provided/);
    assert.match(
      stdout,
      /→ set OPENAI_API_KEY=<your key> in the environment or \.env, or name the variable that holds it: sopworks init --force --api-key-env <NAME>/,
    );
    assert.doesNotMatch(stdout, /refused the key/);
  });

  it('a model name with a typo: exit 1 with the closest name the endpoint serves, and the fix said once', async () => {
    const { code, stdout } = await doctor({ models: [{ id: 'gpt-4o-mini' }, { id: 'gpt-4o' }, { id: 'o4-mini' }] }, { SOPWORKS_MODEL: 'gpt4o-mini' });
    assert.equal(code, 1);
    assert.match(stdout, /✗ model known\s+gpt4o-mini is not in the endpoint's list of 3 model\(s\); did you mean gpt-4o-mini\?/);
    assert.match(stdout, /✗ chat\s+a small chat request failed: 404: The model `gpt4o-mini` does not exist/);
    const advice = stdout.split('\n').filter((line) => /^\s+→ /.test(line));
    assert.deepEqual(
      advice.map((line) => line.trim()),
      ['→ set SOPWORKS_MODEL=gpt-4o-mini (or use --model gpt-4o-mini)'],
      'one fix, naming a setting this user has (no sops/company.yaml: a global install has none)',
    );
  });

  it("a typo in a role's model names the setting it came from: --model-for, or the company file given", async () => {
    const sops = path.join(await tempDir(), 'sops');
    await fs.cp(path.join(ROOT, 'sops'), sops, { recursive: true });
    const yaml = await fs.readFile(path.join(sops, 'company.yaml'), 'utf8');
    await fs.writeFile(path.join(sops, 'company.yaml'), yaml.replace('watches: [PRD]', 'watches: [PRD]\n    model: gpt-4o-mni'));
    const { code, stdout } = await doctor({ models: [{ id: 'gpt-4o-mini' }, { id: 'o4-mini' }] }, {}, ['--sops', sops, '--model-for', 'qa=o4-mnii']);
    assert.equal(code, 1);
    assert.match(stdout, new RegExp(`→ set the model of the role architect in ${literally(path.join(sops, 'company.yaml'))} to gpt-4o-mini\n`));
    assert.match(stdout, /→ use --model-for qa=o4-mini\n/);
    assert.doesNotMatch(stdout, /SOPWORKS_MODEL/, 'the run-wide model is not the one to fix');
  });

  it('init with a typo and an unset key variable: its advice is init again, with what to change', async () => {
    const server = await serve({ key: 'sk-right', models: [{ id: 'gpt-4o-mini' }] });
    closers.push(server.close);
    const config = await tempDir();
    const args = ['init', '--base-url', `${server.url}/v1`, '--model', 'gpt4o-mini', '--force'];
    const unset = await runCli([...args, '--api-key-env', 'MY_KEY'], { cwd: ROOT, env: { XDG_CONFIG_HOME: config } });
    assert.equal(unset.code, 1, unset.stderr);
    assert.match(unset.stderr, /✗ key accepted\s+no key was sent/);
    assert.match(unset.stderr, /→ set MY_KEY=<your key> — it is not set here \(export MY_KEY=…\), then run sopworks doctor/);
    const typo = await runCli([...args, '--api-key-env', 'MY_KEY'], { cwd: ROOT, env: { XDG_CONFIG_HOME: config, MY_KEY: 'sk-right' } });
    assert.equal(typo.code, 1, typo.stderr);
    const advice = typo.stderr.split('\n').filter((line) => /^\s+→ /.test(line));
    assert.deepEqual(
      advice.map((line) => line.trim()),
      ['→ run sopworks init --force --model gpt-4o-mini'],
    );
  });

  it('an HTML login page in the way: exit 1, saying what came back and its likely cause', async () => {
    const { code, stdout } = await doctor({ loginPage: true });
    assert.equal(code, 1);
    assert.match(
      stdout,
      /✗ reachable\s+GET \/models answered with an HTML page \("Sign in"\) \(200\) — a web page answered instead of the model server — a proxy, captive portal or login page/,
    );
  });

  it('a base URL without /v1: exit 1 with the URL to set', async () => {
    const { code, stdout } = await doctor({}, {}, [], '');
    assert.equal(code, 1);
    assert.match(stdout, /the base URL probably lacks \/v1/);
    assert.match(stdout, /→ set OPENAI_BASE_URL=http:\/\/127\.0\.0\.1:\d+\/v1/);
  });

  it('a model that ignores the schema: exit 1, the compliance check fails', async () => {
    const { code, stdout } = await doctor({ sloppy: true });
    assert.equal(code, 1);
    assert.match(stdout, /✗ JSON compliance\s+the reply did not match the schema it was given \(json_schema\)/);
  });

  it('a server that accepts the connection and never answers is not called unreachable', async () => {
    const { code, stdout } = await doctor({ hang: true }, { SOPWORKS_TIMEOUT_MS: '500' });
    assert.equal(code, 1);
    assert.match(stdout, /✗ reachable\s+http:\/\/127\.0\.0\.1:\d+\/v1 accepted the connection but did not answer within 500 ms/);
  });

  it('no server at all: exit 1, cannot connect', async () => {
    const { code, stdout } = await doctor(null);
    assert.equal(code, 1);
    // A server on this machine: the hint says to start it, not to check a proxy or OpenAI's network.
    assert.match(stdout, /✗ reachable\s+cannot connect to http:\/\/127\.0\.0\.1:\d+\/v1 \(ECONNREFUSED\)\. Start the server and check OPENAI_BASE_URL/);
  });

  it('checks every model a role names, with --json for scripts', async () => {
    const sops = path.join(await tempDir(), 'sops');
    await fs.cp(path.join(ROOT, 'sops'), sops, { recursive: true });
    const yaml = await fs.readFile(path.join(sops, 'company.yaml'), 'utf8');
    await fs.writeFile(
      path.join(sops, 'company.yaml'),
      yaml.replace('watches: [PRD]', 'watches: [PRD]\n    model: { model: gpt-4o, fallbacks: [gpt-4o-mini] }'),
    );
    const { code, stdout } = await doctor({ models: [{ id: 'gpt-4o-mini' }, { id: 'gpt-4o' }] }, {}, ['--sops', sops, '--model-for', 'qa=o4-mini', '--json']);
    assert.equal(code, 1, 'o4-mini is not served');
    const report = JSON.parse(stdout) as { works: boolean; models: { model: string; roles: string[]; works: boolean }[] };
    assert.equal(report.works, false);
    assert.deepEqual(
      report.models.map((m) => [m.model, m.roles.join(', '), m.works]),
      [
        ['gpt-4o-mini', 'product-manager, architect (fallback 1), engineer', true],
        ['gpt-4o', 'architect', true],
        ['o4-mini', 'qa', false],
      ],
    );
  });

  it('with no endpoint configured: exit 1 and the settings to set', async () => {
    const result = await sopworks(['doctor'], { cwd: ROOT });
    assert.equal(result.code, 1);
    assert.match(result.stdout, /No model endpoint is configured: run `sopworks init`, or set OPENAI_API_KEY \(OpenAI\) or OPENAI_BASE_URL/);
    assert.match(result.stdout, /sopworks doctor --llm local/);
  });
});
