/**
 * What an installer may ask of its registry, path by path (src/host/egress/registry-paths.ts), and the
 * files a pip page lists (listed-files.ts): registries under a path of their own, scoped names in
 * both spellings, PEP 691 JSON pages and a page's `<base href>`.
 */
import assert from 'node:assert/strict';
import { listedFiles } from '../../../../src/host/egress/listed-files.ts';
import { type EgressRegistry, judgePath, listedKey } from '../../../../src/host/egress/registry-paths.ts';
import { forwardedHeaders, PROXY_USER_AGENT } from '../../../../src/host/egress/request-headers.ts';

const judge = (registries: EgressRegistry[], url: string, listed: string[] = []) => {
  const verdict = judgePath(registries, new URL(url), new Set(listed));
  return verdict.allowed ? verdict.what : `refused: ${verdict.why}`;
};

describe('what the egress proxy lets an installer ask of its registry', () => {
  const mirror: EgressRegistry[] = [{ kind: 'npm', url: 'https://repo.example/artifactory/api/npm/npm-remote/' }];

  it('npm under a path of its own: metadata and tarballs below it, nothing beside it', () => {
    const base = 'https://repo.example/artifactory/api/npm/npm-remote';
    assert.equal(judge(mirror, `${base}/lodash`), 'metadata');
    assert.equal(judge(mirror, `${base}/@types%2Fnode`), 'metadata');
    assert.equal(judge(mirror, `${base}/@types/node/-/node-20.1.0.tgz`), 'file');
    assert.equal(judge(mirror, `${base}/@types%2fnode/-/node-20.1.0.tgz`), 'file');
    assert.match(judge(mirror, 'https://repo.example/artifactory/api/other/lodash'), /not under the registry's path/);
    assert.match(judge(mirror, 'https://other.example/artifactory/api/npm/npm-remote/lodash'), /not a registry of this install/);
    assert.match(judge(mirror, 'http://repo.example/artifactory/api/npm/npm-remote/lodash'), /not a registry of this install/);
    assert.match(judge(mirror, `${base}/@types/node/-/types-node-20.1.0.tgz`), /not a package path/);
    assert.match(judge(mirror, `${base}/@/x`), /not a package path/);
  });

  it('pip: the index by project page, files only when a page listed them, their .metadata with them', () => {
    const index: EgressRegistry[] = [
      { kind: 'pip-index', url: 'https://pypi.org/simple' },
      { kind: 'pip-files', url: 'https://files.pythonhosted.org/' },
    ];
    const wheel = 'https://files.pythonhosted.org/packages/aa/bb/cc/requests-2.31.0-py3-none-any.whl';
    assert.equal(judge(index, 'https://pypi.org/simple/requests/'), 'page');
    assert.equal(judge(index, 'https://pypi.org/simple/Zope.Interface'), 'page');
    assert.match(judge(index, wheel), /not a file a page of the index listed/);
    assert.equal(judge(index, wheel, [wheel]), 'file');
    assert.equal(judge(index, `${wheel}.metadata`, [wheel]), 'file');
    assert.equal(judge(index, `${wheel}#sha256=00`, [wheel]), 'file', 'a fragment is never sent');
    assert.match(judge(index, 'https://pypi.org/pypi/requests/json'), /not under the registry's path/);
    assert.match(judge(index, 'https://pypi.org/simple/requests/?format=json'), /query string/);
  });

  it('reads the files an HTML page (with or without <base>) and a PEP 691 JSON page list', () => {
    const page = new URL('https://pypi.example/simple/demo/');
    assert.deepEqual(listedFiles('<a href="../../f/demo-1.0.whl#sha256=00">x</a><a href=\'demo-1.1.tar.gz\'>y</a><a href=mailto:x>z</a>', page, 'text/html'), [
      'https://pypi.example/f/demo-1.0.whl',
      'https://pypi.example/simple/demo/demo-1.1.tar.gz',
    ]);
    assert.deepEqual(listedFiles('<base href="https://cdn.example/p/"><a href="demo-1.0.whl?x=1&amp;y=2">x</a>', page, 'text/html'), [
      'https://cdn.example/p/demo-1.0.whl?x=1&y=2',
    ]);
    const json = JSON.stringify({ files: [{ url: 'https://files.example/demo-1.0.whl' }, { url: 7 }] });
    assert.deepEqual(listedFiles(json, page, 'application/vnd.pypi.simple.v1+json'), ['https://files.example/demo-1.0.whl']);
    assert.deepEqual(listedFiles('{not json', page, 'application/vnd.pypi.simple.v1+json'), []);
    assert.equal(listedKey(new URL('https://a.example/x.whl#sha256=1')), 'https://a.example/x.whl');
  });

  it('forwards only content negotiation, of a bounded shape, and its own user agent', () => {
    assert.deepEqual(
      forwardedHeaders(
        { accept: 'application/json', 'accept-encoding': 'gzip', 'x-data': 'secret', cookie: 'c', authorization: 'Bearer x', 'user-agent': 'npm secret' },
        { identity: false },
      ),
      {
        'user-agent': PROXY_USER_AGENT,
        accept: 'application/json',
        'accept-encoding': 'gzip',
      },
    );
    assert.deepEqual(forwardedHeaders({ accept: `application/${'x'.repeat(600)}`, 'accept-encoding': 'gzip' }, { identity: true }), {
      'user-agent': PROXY_USER_AGENT,
      'accept-encoding': 'identity',
    });
  });
});
