/**
 * Networks and settings people have. A real local proxy (test/helpers/logging-proxy.ts) that logs what
 * passes through it and alone knows the name the servers are reached at (`*.test`, which resolves nowhere):
 * doctor, the start-up check, the model calls of a run and `models pull` reach them only through it, when
 * HTTP(S)_PROXY says so; NO_PROXY sends a request direct; HTTPS goes through a CONNECT tunnel, and a proxy
 * that refuses is named in the hint (nothing leaves this machine: it refuses before connecting anywhere). And the user's config: `sopworks init` answered on
 * standard input writes it, a run from another folder finds it, and .env and the environment win over it.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { applyUserConfig, readUserConfig } from '../../src/apps/cli/index.ts';
import { reachHint } from '../../src/capabilities/model/index.ts';
import { SopworksError } from '../../src/ground/errors.ts';
import { proxyFor, proxySettings } from '../../src/host/net/index.ts';
import { type LoggingProxy, startLoggingProxy } from '../helpers/logging-proxy.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../helpers/openai-server.ts';
import { BIN, ROOT } from '../helpers/paths.ts';
import { cleanEnv } from '../helpers/run-cli.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const VALID = JSON.stringify({ city: 'Paris', population: 2102650, landmarks: ['Eiffel Tower', 'Louvre'] });
const TINY_MODEL = path.join(ROOT, 'test', 'fixtures', 'models', 'llama-2-tiny-random.gguf');

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

function sopworks(args: string[], cwd: string, env: Record<string, string>, stdin = ''): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: cleanEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

describe('proxies and the user config', function () {
  this.timeout(120_000);
  let server: FakeOpenAI;
  let files: http.Server;
  let filesUrl: string;
  let proxy: LoggingProxy;
  let work: string;
  before(async () => {
    work = await tempDir('sopworks-net-');
    // Answers doctor's checks; a run's own model calls get an HTML page, so a run stops at its first step.
    server = await startFakeOpenAI({
      // doctor asks with one user message; a run's steps start with the role's system prompt.
      replies: (body) =>
        body?.messages?.[0]?.role === 'user'
          ? { content: /JSON object/.test(body.messages[0].content) ? VALID : 'ready' }
          : { body: '<!DOCTYPE html><html><head><title>Sign in</title></head></html>', contentType: 'text/html' },
    });
    const model = await fs.readFile(TINY_MODEL);
    files = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(model.length) });
      res.end(model);
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
    proxy = await startLoggingProxy({ hosts: { 'model-server.test': '127.0.0.1', 'files.test': '127.0.0.1' } });
  });
  after(async () => {
    await Promise.all([server.close(), proxy.close(), new Promise((r) => files.close(r))]);
    await removeTempDirs();
  });
  beforeEach(() => {
    proxy.log.length = 0;
    server.requests.length = 0;
  });

  const port = (url: string) => new URL(url).port;
  /** The fake server at a name only the proxy resolves. */
  const proxied = () => ({ OPENAI_BASE_URL: `http://model-server.test:${port(server.url)}/v1`, SOPWORKS_MODEL: 'test-model', HTTP_PROXY: proxy.url });

  it('sends doctor, the start-up check and the model calls of a run through HTTP_PROXY', async () => {
    const doctor = await sopworks(['doctor', '--json'], work, proxied());
    assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
    assert.ok(proxy.log.length > 0 && proxy.log.every((l) => l === `model-server.test:${port(server.url)}`), proxy.log.join('\n'));
    assert.ok(server.requests.some((r) => r.path === '/v1/models') && server.requests.filter((r) => r.path === '/v1/chat/completions').length >= 2);
    assert.doesNotMatch(doctor.stderr, /experimental/);

    server.requests.length = 0;
    const run = await sopworks(['run', 'a CLI that counts words', '--out', path.join(work, 'runs')], work, proxied());
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout + run.stderr, /an HTML page \("Sign in"\)/);
    const chats = server.requests.filter((r) => r.path === '/v1/chat/completions');
    // The start-up check and the Product Manager's call (ChatOpenAI's fetch): the server is reached at a
    // name that resolves only in the proxy.
    assert.ok(
      chats.some((r) => r.headers['x-sopworks-check']) && chats.some((r) => !r.headers['x-sopworks-check']),
      JSON.stringify(chats.map((r) => r.headers)),
    );
    assert.ok(chats.every((r) => r.headers.host === `model-server.test:${port(server.url)}`));
  });

  it('downloads a model through the proxy (models pull)', async () => {
    const url = `http://files.test:${port(filesUrl)}/tiny.gguf`;
    const pulled = await sopworks(['models', 'pull', url], work, {
      HTTPS_PROXY: proxy.url,
      HTTP_PROXY: proxy.url,
      SOPWORKS_MODELS_DIR: path.join(work, 'models'),
    });
    assert.equal(pulled.code, 0, pulled.stderr);
    assert.deepEqual(proxy.log, [`files.test:${port(filesUrl)}`]);
    assert.equal((await fs.stat(path.join(work, 'models', 'tiny.gguf'))).size, (await fs.stat(TINY_MODEL)).size);
  });

  it('goes direct to a host NO_PROXY names', async () => {
    const direct = {
      OPENAI_BASE_URL: `${server.url}/v1`,
      SOPWORKS_MODEL: 'test-model',
      HTTP_PROXY: proxy.url,
      NO_PROXY: `localhost,${new URL(server.url).hostname}`,
    };
    const doctor = await sopworks(['doctor', '--json'], work, direct);
    assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
    assert.deepEqual(proxy.log, []);
    assert.ok(server.requests.length >= 3);
  });

  it('tunnels HTTPS through CONNECT, and a proxy that refuses is named with what to check', async () => {
    const refusing = await startLoggingProxy({ refuse: true });
    try {
      const doctor = await sopworks(['doctor'], work, { OPENAI_API_KEY: 'sk-test', HTTPS_PROXY: refusing.url });
      assert.equal(doctor.code, 1);
      assert.deepEqual([...new Set(refusing.log)], ['api.openai.com:443']);
      assert.match(doctor.stdout, /went through the proxy http:\/\/127\.0\.0\.1:\d+/);
      assert.match(doctor.stdout, /credentials/);
    } finally {
      await refusing.close();
    }
  });

  it('fits the hint to the endpoint: OpenAI, a local server, a proxy, a proxy in front of a local server', () => {
    const none = { httpsProxy: null, httpProxy: null, noProxy: null };
    assert.match(reachHint('https://api.openai.com/v1', 'ENOTFOUND', none), /HTTPS_PROXY/);
    assert.doesNotMatch(reachHint('https://api.openai.com/v1', 'ENOTFOUND', none), /ollama/);
    assert.match(reachHint('http://localhost:11434/v1', 'ECONNREFUSED', none), /ollama serve/);
    const via = { httpsProxy: 'http://user:secret@proxy:3128', httpProxy: 'http://proxy:3128', noProxy: null };
    assert.match(reachHint('https://api.openai.com/v1', 'ECONNREFUSED', via), /proxy .*proxy:3128/);
    assert.doesNotMatch(reachHint('https://api.openai.com/v1', 'ECONNREFUSED', via), /secret/);
    assert.match(reachHint('http://localhost:11434/v1', 'ECONNREFUSED', via), /NO_PROXY=localhost/);
    assert.match(reachHint('https://api.openai.com/v1', 'Proxy response (407) !== 200', via), /credentials/);
    // NO_PROXY as curl reads it: suffixes, a leading dot, ports, *.
    const some = { httpsProxy: 'http://p:1', httpProxy: 'http://p:1', noProxy: '.corp.example, localhost:8080' };
    assert.equal(proxyFor('https://api.corp.example/v1', some), null);
    assert.equal(proxyFor('http://localhost:8080/v1', some), null);
    assert.equal(proxyFor('http://localhost:11434/v1', some), 'http://p:1');
    assert.equal(proxyFor('https://x.y/v1', { ...some, noProxy: '*' }), null);
    assert.deepEqual(proxySettings({ https_proxy: 'http://low:1', HTTPS_PROXY: 'http://up:1' }).httpsProxy, 'http://low:1');
    assert.throws(
      () => proxySettings({ HTTPS_PROXY: 'proxy:3128' }),
      (e: unknown) => SopworksError.isInstance(e) && e.code === 'CONFIG_INVALID',
    );
  });

  it('init writes the user config from answers on standard input, checked as doctor checks; it is found from any folder, below .env and the environment', async () => {
    const config = path.join(work, 'config');
    const answers = `${server.url}/v1\ntest-model\nnone\n`;
    const init = await sopworks(['init'], work, { XDG_CONFIG_HOME: config }, answers);
    assert.equal(init.code, 0, init.stdout + init.stderr);
    assert.match(init.stderr, /✓ reachable/);
    const file = path.join(config, 'sopworks', 'config.toml');
    assert.deepEqual(readUserConfig(file)?.model, { base_url: `${server.url}/v1`, name: 'test-model' });

    // Another folder, no .env, nothing in the environment: the config's endpoint is used.
    const elsewhere = await tempDir('sopworks-elsewhere-');
    const doctor = await sopworks(['doctor', '--json'], elsewhere, { XDG_CONFIG_HOME: config });
    assert.equal(doctor.code, 0, doctor.stderr);
    assert.equal(JSON.parse(doctor.stdout).models[0].baseUrl, `${server.url}/v1`);

    // .env over the config, the environment over both (as settings are applied by main).
    const env: NodeJS.ProcessEnv = { XDG_CONFIG_HOME: config, SOPWORKS_MODEL: 'from-env', OPENAI_BASE_URL: '' };
    assert.deepEqual(applyUserConfig(env).sort(), ['OPENAI_BASE_URL']);
    assert.equal(env.SOPWORKS_MODEL, 'from-env');
    assert.equal(env.OPENAI_BASE_URL, `${server.url}/v1`, 'a blank setting (a copied .env.example) is filled');
    await fs.writeFile(path.join(elsewhere, '.env'), 'SOPWORKS_MODEL=from-dotenv\n');
    const dotenv = await sopworks(['doctor', '--json'], elsewhere, { XDG_CONFIG_HOME: config });
    assert.equal(JSON.parse(dotenv.stdout).models[0].model, 'from-dotenv');
  });

  it('keeps the name of the key variable, never the key unless the person insists, then in a file only they read', async () => {
    const config = path.join(work, 'keys');
    const file = path.join(config, 'sopworks', 'config.toml');
    const named = await sopworks(
      ['init', '--no-check', '--base-url', 'openai', '--model', 'gpt-4o-mini'],
      work,
      { XDG_CONFIG_HOME: config },
      'MY_OPENAI_KEY\n',
    );
    assert.equal(named.code, 0, named.stderr);
    assert.deepEqual(readUserConfig(file)?.model, { name: 'gpt-4o-mini', api_key_env: 'MY_OPENAI_KEY' });
    const env: NodeJS.ProcessEnv = { XDG_CONFIG_HOME: config, MY_OPENAI_KEY: 'sk-from-variable' };
    applyUserConfig(env);
    assert.equal(env.OPENAI_API_KEY, 'sk-from-variable');

    const declined = await sopworks(
      ['init', '--no-check', '--force', '--base-url', 'openai', '--model', 'gpt-4o-mini'],
      work,
      { XDG_CONFIG_HOME: config },
      'sk-secret-123\nno\n',
    );
    assert.equal(declined.code, 0, declined.stderr);
    assert.doesNotMatch(await fs.readFile(file, 'utf8'), /sk-secret/);
    assert.match(declined.stderr, /looks like a key/);

    const insisted = await sopworks(
      ['init', '--no-check', '--force', '--base-url', 'openai', '--model', 'gpt-4o-mini'],
      work,
      { XDG_CONFIG_HOME: config },
      'sk-secret-123\nyes\n',
    );
    assert.equal(insisted.code, 0, insisted.stderr);
    assert.equal(readUserConfig(file)?.model.api_key, 'sk-secret-123');
    assert.equal((await fs.stat(file)).mode & 0o777, 0o600);
  });

  it('refuses a config file that is not valid for a command that needs a model, naming it and each bad key (exit 2)', async () => {
    const config = path.join(work, 'bad');
    await fs.mkdir(path.join(config, 'sopworks'), { recursive: true });
    await fs.writeFile(path.join(config, 'sopworks', 'config.toml'), '[model]\nbase_url = "localhost:11434"\nmodle = "x"\n');
    const result = await sopworks(['doctor'], work, { XDG_CONFIG_HOME: config });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /config\.toml/);
    assert.match(result.stderr, /base_url: must be an http\(s\) URL/);
    assert.match(result.stderr, /modle/);
  });
});
