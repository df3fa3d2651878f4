/**
 * The egress proxy on its own, as the sandbox reaches it (its Unix socket, absolute-form requests),
 * in front of a real registry stand-in on this machine that records every request it gets: only what
 * an installer needs gets through — npm metadata and tarballs (scoped too), a pip index's project
 * pages, the files a page listed, the find-links page — by GET or HEAD, with only the allowed headers
 * and the user's credential; every other method, path and header is refused or dropped before
 * anything goes upstream, and counted; an answer over its size or time bound is cut off and counted.
 * Another name of the npm registry (a Yarn 1 lockfile's) is served by the configured registry, and a
 * CONNECT to an http registry (Yarn 2+ tunnels every request) carries plain HTTP, judged the same.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type net from 'node:net';
import { type EgressProxy, type EgressRegistry, NO_UPSTREAM_SETTINGS, PROXY_USER_AGENT, startEgressProxy } from '../../src/host/egress/index.ts';

const TOKEN = `Bearer registry-token-${process.pid}`;
const BIG = 2 * 1024 * 1024;

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

/** A registry stand-in: metadata, tarballs, pip pages and files, a big file, a slow answer. */
async function startRegistry(): Promise<{ url: string; seen: Seen[]; stop(): Promise<void> }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    const url = req.url ?? '';
    if (url === '/slow/-/slow-1.0.0.tgz') return void setTimeout(() => res.writeHead(200).end('late'), 3000);
    if (url === '/trickle/-/trickle-1.0.0.tgz') {
      res.writeHead(200);
      const timer = setInterval(() => res.write('x'), 200);
      res.on('close', () => clearInterval(timer));
      return;
    }
    if (url === '/big/-/big-1.0.0.tgz') return void res.writeHead(200, { 'content-length': BIG }).end(Buffer.alloc(BIG));
    if (url === '/chunked/-/chunked-1.0.0.tgz') {
      res.writeHead(200);
      for (let i = 0; i < BIG / 65536; i++) res.write(Buffer.alloc(65536));
      return void res.end();
    }
    if (url === '/simple/tinyslug/') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return void res.end('<html><body><a href="../../files/tinyslug-1.0.0-py3-none-any.whl#sha256=00">tinyslug</a></body></html>');
    }
    if (url === '/links/') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return void res.end('<a href="tinyslug-1.0.0-py3-none-any.whl">w</a>');
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    seen,
    stop: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A request through the proxy's socket, as the sandbox's forwarder passes it on. */
function viaProxy(
  proxy: EgressProxy,
  method: string,
  url: string,
  headers: http.OutgoingHttpHeaders = {},
): Promise<{ status: number; bytes: number; cut: boolean }> {
  return new Promise((resolve) => {
    const req = http.request({ socketPath: proxy.socketPath, method, path: url, headers: { host: new URL(url).host, ...headers } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, cut: false }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, bytes, cut: true }));
      res.on('aborted', () => resolve({ status: res.statusCode ?? 0, bytes, cut: true }));
    });
    req.on('error', () => resolve({ status: 0, bytes: 0, cut: true }));
    req.end();
  });
}

describe('the egress proxy lets through only what an installer needs', function () {
  this.timeout(60_000);
  let registry: Awaited<ReturnType<typeof startRegistry>>;
  let proxy: EgressProxy;
  const start = (registries: EgressRegistry[]) =>
    startEgressProxy({
      registries,
      upstream: { ...NO_UPSTREAM_SETTINGS, credentials: [{ prefix: `//${new URL(registry.url).host}/`, authorization: TOKEN, from: 'the test' }] },
      bounds: { metadataBytes: 64 * 1024, fileBytes: 1024 * 1024, responseMs: 1000 },
    });

  before(async () => {
    registry = await startRegistry();
  });
  after(async () => {
    await registry?.stop();
  });
  afterEach(async () => {
    await proxy?.stop();
  });

  it('npm: metadata and tarballs, scoped too, by GET and HEAD, with the credential and the allowed headers alone', async () => {
    proxy = await start([{ kind: 'npm', url: registry.url }]);
    registry.seen.length = 0;
    const sent = {
      accept: 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*',
      'x-exfil': 'data',
      cookie: 'a=b',
      authorization: 'Bearer sandbox',
      'npm-session': '0123456789abcdef',
      'user-agent': 'npm/11 leak',
    };
    for (const path of ['mini-slug', '@scope%2fpkg', '@scope/pkg', 'mini-slug/-/mini-slug-1.0.2.tgz', '@scope/pkg/-/pkg-1.0.0-beta.1.tgz', 'Legacy.Name_1']) {
      assert.equal((await viaProxy(proxy, 'GET', `${registry.url}${path}`, sent)).status, 200, path);
    }
    assert.equal((await viaProxy(proxy, 'HEAD', `${registry.url}mini-slug`)).status, 200);
    assert.equal(registry.seen.length, 7);
    for (const request of registry.seen) {
      assert.equal(request.headers.authorization, TOKEN, 'the user credential, added by the proxy');
      assert.equal(request.headers['user-agent'], PROXY_USER_AGENT);
      for (const header of ['x-exfil', 'cookie', 'npm-session']) assert.equal(request.headers[header], undefined, `${header} is dropped`);
    }
    assert.equal(registry.seen[0]!.headers.accept, sent.accept, 'content negotiation goes through');
    assert.ok(proxy.requests().every((entry) => entry.allowed));
  });

  it('npm: every other method, path and query is refused before anything goes upstream, each counted', async () => {
    proxy = await start([{ kind: 'npm', url: registry.url }]);
    registry.seen.length = 0;
    const secret = Buffer.from('a committed file').toString('hex');
    const refused = [
      ['POST', 'mini-slug'],
      ['PUT', 'mini-slug'],
      ['DELETE', 'mini-slug/-rev/1'],
      ['PATCH', 'mini-slug'],
      ['OPTIONS', 'mini-slug'],
      ['GET', '-/whoami'],
      ['GET', '-/v1/search?text=secret'],
      ['GET', '-/npm/v1/security/advisories/bulk'],
      ['GET', `mini-slug?leak=${secret}`],
      ['GET', 'a/b/c'],
      ['GET', `${'a'.repeat(215)}`],
      ['GET', `@scope/${'a'.repeat(210)}`],
      ['GET', '%2e%2e/etc/passwd'],
      ['GET', '.hidden'],
      ['GET', 'mini-slug/-/other-1.0.0.tgz'],
      ['GET', `mini-slug/-/mini-slug-${'1'.repeat(130)}.tgz`],
      ['GET', 'mini-slug/-/mini-slug-1.0.0.tar.gz'],
      ['GET', 'name%20with%20space'],
    ] as const;
    for (const [method, path] of refused) assert.equal((await viaProxy(proxy, method, `${registry.url}${path}`)).status, 403, `${method} ${path}`);
    assert.deepEqual(registry.seen, [], 'nothing reached the registry, so no credential went with it');
    assert.equal(proxy.requests().filter((entry) => !entry.allowed).length, refused.length);
  });

  it('pip: a project page of the index, then only the files it listed (and their .metadata); the find-links page alone', async () => {
    proxy = await start([{ kind: 'pip-index', url: `${registry.url}simple/` }]);
    registry.seen.length = 0;
    const file = `${registry.url}files/tinyslug-1.0.0-py3-none-any.whl`;
    assert.equal((await viaProxy(proxy, 'GET', file)).status, 403, 'not listed yet');
    assert.equal((await viaProxy(proxy, 'GET', `${registry.url}simple/tinyslug/`)).status, 200);
    assert.equal(registry.seen[0]!.headers['accept-encoding'], 'identity', 'a page the proxy reads is asked for uncompressed');
    assert.equal((await viaProxy(proxy, 'GET', file)).status, 200, 'listed by the page');
    assert.equal((await viaProxy(proxy, 'GET', `${file}.metadata`)).status, 200);
    for (const path of ['files/other-1.0.0-py3-none-any.whl', 'simple/', 'simple/tinyslug/?q=1', `simple/${'a'.repeat(129)}/`, 'simple/-bad-/', 'files/']) {
      assert.equal((await viaProxy(proxy, 'GET', `${registry.url}${path}`)).status, 403, path);
    }
    assert.deepEqual(
      registry.seen.map((request) => request.url),
      ['/simple/tinyslug/', '/files/tinyslug-1.0.0-py3-none-any.whl', '/files/tinyslug-1.0.0-py3-none-any.whl.metadata'],
    );
    await proxy.stop();
    proxy = await start([{ kind: 'pip-find-links', url: `${registry.url}links/` }]);
    assert.equal((await viaProxy(proxy, 'GET', `${registry.url}links/tinyslug-1.0.0-py3-none-any.whl`)).status, 403, 'before the page');
    assert.equal((await viaProxy(proxy, 'GET', `${registry.url}links/`)).status, 200);
    assert.equal((await viaProxy(proxy, 'GET', `${registry.url}links/tinyslug-1.0.0-py3-none-any.whl`)).status, 200);
    assert.equal((await viaProxy(proxy, 'GET', `${registry.url}links/other`)).status, 403);
  });

  it('an answer over its size bound, declared or not, or over its time bound, is cut off and counted', async () => {
    proxy = await start([{ kind: 'npm', url: registry.url }]);
    const declared = await viaProxy(proxy, 'GET', `${registry.url}big/-/big-1.0.0.tgz`);
    assert.equal(declared.status, 403, 'refused from its content-length');
    const chunked = await viaProxy(proxy, 'GET', `${registry.url}chunked/-/chunked-1.0.0.tgz`);
    assert.ok(chunked.cut && chunked.bytes <= 1024 * 1024, `cut off at the bound (${chunked.bytes} bytes)`);
    assert.equal((await viaProxy(proxy, 'GET', `${registry.url}slow/-/slow-1.0.0.tgz`)).status, 403, 'no answer within the time bound');
    const trickle = await viaProxy(proxy, 'GET', `${registry.url}trickle/-/trickle-1.0.0.tgz`);
    assert.ok(trickle.cut, 'a trickle is cut at the time bound');
    const counted = proxy
      .requests()
      .filter((entry) => !entry.allowed)
      .map((entry) => `${entry.request}: ${entry.result}`);
    assert.equal(counted.length, 4, counted.join('\n'));
    assert.match(counted[0]!, /big-1\.0\.0\.tgz: the answer is 2097152 bytes, over the bound of 1048576/);
    assert.match(counted[1]!, /chunked-1\.0\.0\.tgz: the answer is over the bound of 1048576 bytes/);
    assert.match(counted[2]!, /slow-1\.0\.0\.tgz: the answer took longer than 1 s/);
    assert.match(counted[3]!, /trickle-1\.0\.0\.tgz: the answer took longer than 1 s/);
  });

  /** Requests sent in one CONNECT tunnel to `authority` through the proxy's socket: each answer's status, or what ended it. */
  function throughTunnel(authority: string, payload: Buffer | string): Promise<string> {
    return new Promise((resolve) => {
      const req = http.request({ socketPath: proxy.socketPath, method: 'CONNECT', path: authority, headers: { host: authority } });
      req.on('connect', (res, socket) => {
        let said = '';
        socket.on('data', (chunk: Buffer) => (said += chunk.toString('latin1')));
        socket.on('close', () => resolve(`${res.statusCode}: ${[...said.matchAll(/^HTTP\/1\.1 (\d+)/gm)].map((m) => m[1]).join(',') || 'closed'}`));
        socket.on('error', () => undefined);
        socket.write(payload);
      });
      req.on('response', (res) => resolve(`${res.statusCode}`));
      req.on('error', (error) => resolve(`error ${error.message}`));
      req.end();
    });
  }

  it('a CONNECT to an http registry is a plain-HTTP tunnel, each request judged by its path; TLS in it is cut off', async () => {
    proxy = await start([{ kind: 'npm', url: registry.url }]);
    const authority = new URL(registry.url).host;
    const before = registry.seen.length;
    const pair = `GET /left-pad HTTP/1.1\r\nhost: ${authority}\r\n\r\nGET /-/whoami HTTP/1.1\r\nhost: ${authority}\r\nconnection: close\r\n\r\n`;
    assert.equal(await throughTunnel(authority, pair), '200: 200,403');
    assert.deepEqual(
      registry.seen.slice(before).map((r) => `${r.method} ${r.url} ${r.headers.authorization}`),
      [`GET /left-pad ${TOKEN}`],
      'only the package path went upstream, with the credential',
    );
    assert.equal(await throughTunnel(authority, Buffer.from([0x16, 0x03, 0x01, 0x00, 0x05, 0x01, 0x00, 0x00, 0x01, 0x00])), '200: closed');
    assert.equal(await throughTunnel(authority, 'SET sopworks-pwned 1\r\n'), '200: closed');
    assert.deepEqual(
      proxy
        .requests()
        .filter((r) => !r.allowed)
        .map((r) => r.result),
      ['not a package path of an npm registry (<name>, @scope%2f<name>, <name>/-/<name>-<version>.tgz)', 'TLS to an http registry', 'not an HTTP request'],
    );
    assert.equal(registry.seen.length, before + 1, 'nothing else reached the registry');
  });

  it("another name of the npm registry (a Yarn 1 lockfile's registry.yarnpkg.com) is served by the configured registry, at the same path", async () => {
    proxy = await start([
      { kind: 'npm', url: registry.url },
      { kind: 'npm', url: 'http://registry.yarnpkg.example/', servedBy: registry.url },
    ]);
    const before = registry.seen.length;
    assert.equal((await viaProxy(proxy, 'GET', 'http://registry.yarnpkg.example/mini-slug/-/mini-slug-1.0.2.tgz')).status, 200);
    assert.equal((await viaProxy(proxy, 'GET', 'http://registry.yarnpkg.example/-/whoami')).status, 403);
    assert.deepEqual(
      registry.seen.slice(before).map((r) => `${r.url} ${r.headers.authorization}`),
      [`/mini-slug/-/mini-slug-1.0.2.tgz ${TOKEN}`],
    );
    assert.match(proxy.requests()[0]!.result, new RegExp(`^200 \\(from ${registry.url}mini-slug/-/mini-slug-1\\.0\\.2\\.tgz\\)$`));
  });
});
