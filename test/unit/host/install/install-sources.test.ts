/**
 * Every way a manifest, a lockfile or a config file can name where packages come from, against the
 * checks that run before an install (src/host/install/): the class of each — paths, URLs, git, index
 * options, includes, aliases, overrides, links — not one example of it.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { allowed, authorityOf, authorizationFor, originOf } from '../../../../src/host/egress/index.ts';
import { ignoredConfigs } from '../../../../src/host/install/ignored-configs.ts';
import { checkInstall } from '../../../../src/host/install/install-project.ts';
import { lockfileRefusals, packageJsonRefusals, specProblem } from '../../../../src/host/install/npm-sources.ts';
import { readNpmUserConfig } from '../../../../src/host/install/npm-user-config.ts';
import { describeSetting, npmrcSettings, registryScopes } from '../../../../src/host/install/npmrc-settings.ts';
import { logicalLines, requirementProblem, requirementsRefusals } from '../../../../src/host/install/python-sources.ts';
import { allowedOrigins, resolveRegistries } from '../../../../src/host/install/registries.ts';
import { readUserRegistrySettings } from '../../../../src/host/install/user-registry-settings.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

const REGISTRY = 'http://127.0.0.1:4873/';

async function project(files: Record<string, string>): Promise<string> {
  const dir = await tempDir();
  for (const [name, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await fs.writeFile(path.join(dir, name), content);
  }
  return dir;
}

describe('install sources: npm', () => {
  it('accepts only versions, ranges, tags and npm: aliases of them', () => {
    for (const spec of ['^1.0.0', '1.2.3', '~2', 'latest', '*', '>=1 <3', 'npm:other@^1', 'npm:@scope/x@2.0.0'])
      assert.equal(specProblem('a', spec), null, spec);
  });

  it('refuses every other kind of spec, naming the kind', () => {
    const cases: [string, RegExp][] = [
      ['file:../x', /local folder/],
      ['../x', /local folder/],
      ['/abs/x', /local folder/],
      ['~/x', /local folder/],
      ['./pkg.tgz', /file of the project/],
      ['link:../x', /Unsupported URL Type "link:"/],
      ['workspace:*', /no workspace called a/],
      ['github:u/r', /git repository/],
      ['u/r', /git repository/],
      ['git+ssh://git@h/r.git', /git repository/],
      ['git://h/r', /git repository/],
      ['https://evil.example/x.tgz', /URL/],
      ['http://127.0.0.1:6379/x', /URL/],
      ['npm:b@file:../x', /registry/],
      ['npm:b@https://x/y.tgz', /registry/],
    ];
    for (const [spec, why] of cases) assert.match(specProblem('a', spec) ?? 'accepted', why, spec);
  });

  it('checks every dependency field npm installs, overrides at any depth and workspaces, with the line', () => {
    const manifest = {
      name: 'p',
      dependencies: { good: '^1.0.0', local: 'file:./vendor/local' },
      devDependencies: { tool: 'github:evil/tool' },
      optionalDependencies: { opt: 'https://evil.example/opt.tgz' },
      peerDependencies: { peer: '../peer' },
      overrides: { good: '$good', deep: { nested: { '.': 'git+https://h/r.git' } }, 'x@1': 'file:x' },
      workspaces: ['packages/*'],
    };
    const text = JSON.stringify(manifest, null, 2);
    const refusals = packageJsonRefusals(text, manifest);
    assert.deepEqual(
      refusals.map((r) => r.found.split(':')[0]),
      [
        'dependencies.local',
        'devDependencies.tool',
        'optionalDependencies.opt',
        'peerDependencies.peer',
        'overrides.deep.nested..',
        'overrides.x@1',
        'workspaces',
      ],
    );
    const lines = text.split('\n');
    for (const refusal of refusals.slice(0, 4)) assert.match(lines[refusal.line! - 1]!, new RegExp(refusal.found.split('.')[1]!.split(':')[0]!), refusal.found);
  });

  it("refuses lockfile entries that resolve elsewhere, link, or come from a folder; accepts the registry's", () => {
    const lock = {
      lockfileVersion: 3,
      packages: {
        '': { name: 'p', dependencies: { ok: '^1.0.0' } },
        'node_modules/ok': { version: '1.0.0', resolved: `${REGISTRY}ok/-/ok-1.0.0.tgz` },
        'node_modules/elsewhere': { version: '1.0.0', resolved: 'https://evil.example/e.tgz' },
        'node_modules/linked': { resolved: 'vendor/linked', link: true },
        'vendor/linked': { version: '1.0.0' },
        'node_modules/gitdep': { version: '1.0.0', resolved: 'git+ssh://git@h/r.git#abc' },
        'node_modules/loopback': { version: '1.0.0', resolved: 'http://127.0.0.1:6379/x.tgz' },
      },
      dependencies: { old: { version: 'file:../old' } },
    };
    const refusals = lockfileRefusals(JSON.stringify(lock, null, 2), 'package-lock.json', REGISTRY);
    assert.deepEqual(
      refusals.map((r) => r.found.split(':')[0]),
      ['node_modules/elsewhere', 'node_modules/linked', 'vendor/linked', 'node_modules/gitdep', 'node_modules/loopback', 'old'],
    );
    assert.ok(refusals.every((r) => /delete package-lock\.json/.test(r.fix)));
    assert.equal(lockfileRefusals('{ not json', 'package-lock.json', REGISTRY)[0]!.why.startsWith('it is not valid JSON'), true);
  });

  it('reads a project .npmrc as data: what only restricts is honoured, what redirects traffic or credentials is overridden, no token quoted', () => {
    const text = [
      '; a comment',
      'ignore-scripts=true',
      'package-lock=false',
      'engine-strict=true',
      'registry=https://evil.example/',
      '@corp:registry=https://corp.example/',
      '//evil.example/:_authToken=SECRET',
      'https-proxy=http://proxy.example:8080',
      'cafile=/etc/evil.pem',
      'cache=/home/someone/.npm',
      'pnpmfile=.pnpmfile.cjs',
      '',
    ].join('\n');
    const lines = npmrcSettings(text, false).map(describeSetting);
    assert.deepEqual(
      lines.map((line) => line.replace(/ — (honoured|overridden).*/, ' $1')),
      [
        '.npmrc:2: ignore-scripts=true honoured',
        '.npmrc:3: package-lock=false honoured',
        '.npmrc:4: engine-strict=true honoured',
        '.npmrc:5: registry=https://evil.example/ overridden',
        '.npmrc:6: @corp:registry=https://corp.example/ overridden',
        '.npmrc:7: //evil.example/:_authToken=… overridden',
        '.npmrc:8: https-proxy=http://proxy.example:8080 overridden',
        '.npmrc:9: cafile=/etc/evil.pem overridden',
        '.npmrc:10: cache=/home/someone/.npm overridden',
        '.npmrc:11: pnpmfile=.pnpmfile.cjs overridden',
      ],
    );
    assert.ok(!lines.join('\n').includes('SECRET'), 'no token quoted');
    assert.match(lines[3]!, /packages come only from the configured registry/);
    assert.match(lines[5]!, /drops every credential the install sends/);
    assert.deepEqual(registryScopes(text), ['@corp']);
  });

  it('ignore-scripts=false is overridden while the policy keeps scripts off, honoured when it lets them run', () => {
    assert.equal(npmrcSettings('ignore-scripts=false\n', false)[0]!.verdict, 'overridden');
    assert.equal(npmrcSettings('ignore-scripts=false\n', true)[0]!.verdict, 'honoured');
  });
});

describe('install sources: Python requirements', () => {
  after(removeTempDirs);

  it('reads lines as pip does: continuations joined, comments cut', () => {
    assert.deepEqual(logicalLines('a>=1 # why\n# whole\nb \\\n  ==2\n\n-i \\\nhttps://evil\n'), [
      { number: 1, text: 'a>=1' },
      { number: 3, text: 'b   ==2' },
      { number: 6, text: '-i https://evil' },
    ]);
  });

  it('accepts names with extras, versions, markers and hashes (after a byte-order mark, with CRLF lines)', async () => {
    const dir = await project({
      'requirements.txt':
        '\uFEFFtinyslug>=1.0\r\n' +
        'requests>=2.31\nfoo[bar,baz]~=1.2 ; python_version >= "3.8"\nx==1.0 --hash=sha256:abc \\\n  --hash=sha256:def\n--require-hashes\n--pre\n--prefer-binary\n',
    });
    assert.deepEqual(requirementsRefusals(dir, 'requirements.txt'), []);
  });

  it('refuses every line that names another source or changes how pip installs, with file:line', async () => {
    const lines = [
      './pkg',
      '../outside',
      '/abs/pkg',
      'pkg-1.0.tar.gz',
      'evil.whl',
      'name @ https://evil.example/x.whl',
      'name[extra] @ ./local',
      'name @ file:///tmp/x',
      'https://evil.example/x.tar.gz',
      'git+https://github.com/a/b',
      '-e ./pkg',
      '--editable=git+https://h/r#egg=r',
      '-i https://evil.example/simple',
      '-ihttps://evil.example/simple',
      '--index-url=https://evil.example/simple',
      '--extra-index-url https://evil.example/simple',
      '--no-index',
      '-f ./wheels',
      '--find-links=https://evil.example/links',
      '--trusted-host evil.example',
      '--no-binary :all:',
      '--only-binary :none:',
      '--use-feature=truststore',
      'x --config-settings=a=b',
      'y --global-option=--evil',
      '-r https://evil.example/req.txt',
      '-r ../outside.txt',
      '-c /etc/constraints.txt',
      '-r missing.txt',
    ];
    const dir = await project({ 'requirements.txt': `${lines.join('\n')}\n` });
    const refusals = requirementsRefusals(dir, 'requirements.txt');
    assert.deepEqual(
      refusals.map((r) => r.line),
      lines.map((_, index) => index + 1),
      refusals.map((r) => `${r.line} ${r.found}: ${r.why}`).join('\n'),
    );
    assert.ok(refusals.every((r) => r.file === 'requirements.txt' && r.why.length > 10));
  });

  it('follows -r and -c into project files and checks them too; a cycle ends', async () => {
    const dir = await project({
      'requirements.txt': 'a>=1\n-r more/extra.txt\n-c constraints.txt\n',
      'more/extra.txt': 'b>=1\n-r ../requirements.txt\n--extra-index-url https://evil.example/simple\n',
      'constraints.txt': 'c==1 @ x\nnope @ https://e/x.whl\n',
    });
    assert.deepEqual(
      requirementsRefusals(dir, 'requirements.txt').map((r) => `${r.file}:${r.line}`),
      ['more/extra.txt:3', 'constraints.txt:1', 'constraints.txt:2'],
    );
  });

  it('reads no file outside the project, even through a link, and quotes none of it', async () => {
    const secret = await project({ 'token.txt': 'SECRET-VALUE\n' });
    const dir = await project({ 'requirements.txt': '-r inc.txt\n' });
    await fs.symlink(path.join(secret, 'token.txt'), path.join(dir, 'inc.txt'));
    const refusals = requirementsRefusals(dir, 'requirements.txt');
    assert.equal(refusals.length, 1);
    assert.match(refusals[0]!.why, /link to a file outside the project/);
    assert.doesNotMatch(JSON.stringify(refusals), /SECRET-VALUE/);
  });

  it('checks pyproject dependencies as PEP 508 names, and says which tool tables were ignored', async () => {
    assert.equal(requirementProblem('requests>=2'), null);
    assert.match(requirementProblem('x @ https://evil/x.whl') ?? '', /direct reference/);
    assert.notEqual(requirementProblem('-ihttps://evil'), null);
    const dir = await project({
      'pyproject.toml': '[project]\nname = "p"\ndependencies = ["ok>=1", "bad @ file:///tmp/x"]\n\n[[tool.uv.index]]\nurl = "https://evil.example/simple"\n',
      'pip.conf': '[global]\nindex-url = https://evil.example/simple\n',
      'setup.cfg': '[flake8]\nmax-line-length = 100\n',
    });
    const check = await checkInstall({ projectDir: dir, registries: { npm: null, pipIndex: REGISTRY, pipFindLinks: null }, scripts: false, env: {} });
    assert.deepEqual(
      check.refusals.map((r) => `${r.file}:${r.line} ${r.found}`),
      ['pyproject.toml:3 bad @ file:///tmp/x'],
    );
    assert.deepEqual(
      check.ignored.map((note) => note.split(' — ')[0]),
      ['pip.conf', 'pyproject.toml:5: [[tool.uv.index]]'],
      'a setup.cfg that names no source is not mentioned',
    );
  });
});

describe('install egress: the allow rule and the user settings it carries', () => {
  it('allows exactly the configured origin: scheme, host and port', () => {
    const allow = [originOf('http://127.0.0.1:4873/')!, originOf('https://Registry.Example.org./npm/')!];
    assert.ok(allowed(allow, originOf('http://127.0.0.1:4873/x')!));
    assert.ok(allowed(allow, authorityOf('registry.example.org:443', 'https')!));
    for (const target of [
      originOf('http://127.0.0.1:6379/')!,
      originOf('https://127.0.0.1:4873/')!,
      originOf('http://localhost:4873/')!,
      originOf('http://[::1]:4873/')!,
      originOf('http://registry.example.org/')!,
      authorityOf('registry.example.org:8443', 'https')!,
      authorityOf('evil.example:443', 'https')!,
    ]) {
      assert.equal(allowed(allow, target), false, JSON.stringify(target));
    }
    for (const bad of ['registry.example.org', 'a:b:443', 'h:0', 'h:99999', '[::1', 'h:443/x']) assert.equal(authorityOf(bad, 'https'), null, bad);
  });

  it('lets PyPI bring files.pythonhosted.org, and nothing else brings another host', () => {
    const pypi = resolveRegistries({ npm: null, pipIndex: null, pipFindLinks: null }, { npmRegistry: null, pipIndex: null });
    assert.deepEqual(
      allowedOrigins(pypi, 'python').map((o) => `${o.scheme}://${o.host}:${o.port}`),
      ['https://pypi.org:443', 'https://files.pythonhosted.org:443'],
    );
    assert.deepEqual(
      allowedOrigins(pypi, 'npm').map((o) => o.host),
      ['registry.npmjs.org'],
    );
  });

  it("takes credentials out of a registry URL for the proxy, and reads the user's npm config as npm layers it", async () => {
    const resolved = resolveRegistries({ npm: 'https://me:p%40ss@npm.example/', pipIndex: null, pipFindLinks: null }, { npmRegistry: null, pipIndex: null });
    assert.equal(resolved.npm, 'https://npm.example/');
    assert.equal(authorizationFor('https://npm.example/x/-/x-1.tgz', resolved.credentials), `Basic ${Buffer.from('me:p@ss').toString('base64')}`);

    const dir = await tempDir();
    const ca = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----';
    await fs.writeFile(path.join(dir, 'ca.pem'), `${ca}\n`);
    await fs.writeFile(path.join(dir, 'global'), 'registry=https://global.example/\n');
    await fs.writeFile(
      path.join(dir, 'user'),
      `registry=https://mirror.example/npm/\ncafile=${path.join(dir, 'ca.pem')}\n//mirror.example/npm/:_authToken=\${TOKEN}\n@corp:registry=https://corp.example/\n`,
    );
    const env = {
      npm_config_globalconfig: path.join(dir, 'global'),
      npm_config_userconfig: path.join(dir, 'user'),
      TOKEN: 'tok',
      HTTPS_PROXY: 'http://corp-proxy:3128',
    };
    const config = readNpmUserConfig(env);
    assert.equal(authorizationFor('https://mirror.example/npm/pkg', config.credentials), 'Bearer tok');
    assert.equal(authorizationFor('https://other.example/npm/pkg', config.credentials), null);
    const settings = readUserRegistrySettings({ ...env, PIP_CONFIG_FILE: '/dev/null' });
    assert.equal(settings.npmRegistry?.value, 'https://mirror.example/npm/');
    assert.deepEqual(
      settings.upstream.ca.map((c) => c.pem),
      [ca],
    );
    assert.equal(settings.upstream.proxy.httpsProxy, 'http://corp-proxy:3128');
    assert.ok(settings.notes.some((note) => /@corp:registry is not carried/.test(note)));
  });

  it('says which configs of a Node project were ignored', async () => {
    const dir = await project({ '.yarnrc.yml': 'npmRegistryServer: "https://evil.example"\n' });
    assert.deepEqual(
      ignoredConfigs(dir, 'npm').map((note) => note.split(' — ')[0]),
      ['.yarnrc.yml'],
    );
  });
});
