/**
 * What a failed install's report says when the egress proxy refused what the installer asked for: the
 * request, the proxy's reason, and what the proxy lets through — read from the output as the install
 * step gets it (src/host/install/install-failures.ts).
 */
import assert from 'node:assert/strict';
import { describeInstallFailure } from '../../../../src/host/install/install-failures.ts';

describe('an install the egress proxy refused something of', () => {
  it("names the request and the proxy's reason, and says what the proxy lets through", () => {
    const output = [
      'npm error code E403',
      'npm error 403 Forbidden - GET https://npm.pkg.example/download/@acme/tool/1.0.0/abc',
      'sopworks egress proxy: refused GET https://npm.pkg.example/download/@acme/tool/1.0.0/abc: not a package path of an npm registry (<name>, @scope%2f<name>, <name>/-/<name>-<version>.tgz)',
    ].join('\n');
    const [failure] = describeInstallFailure(output, 1, false);
    assert.equal(failure!.name, 'install: the egress proxy');
    assert.match(
      failure!.message,
      /^the install asked for GET https:\/\/npm\.pkg\.example\/download\/@acme\/tool\/1\.0\.0\/abc, which the egress proxy does not let through \(not a package path of an npm registry .*\): it forwards only the configured registry's package metadata and files/,
    );
    assert.match(failure!.message, /the installer said: npm error code E403/);
  });
});

describe('an install whose package manager needs a newer Node.js', () => {
  it('says which version needs which Node.js, what runs here and what to do, and quotes the crash', () => {
    // pnpm 11.13.1's own output on Node.js 20.20.2 (changesets' packageManager), as the install step got it.
    const output = [
      'note: installed with pnpm 11.13.1, fetched by sopworks from https://registry.npmjs.org/, its sha512 as packageManager says',
      'warn: This version of pnpm requires at least Node.js v22.13',
      'warn: The current version of Node.js is v20.20.2',
      'warn: Visit https://r.pnpm.io/comp to see the list of past pnpm versions with respective Node.js version support.',
      'node:internal/modules/cjs/loader:1031',
      '      throw new ERR_UNKNOWN_BUILTIN_MODULE(request);',
      '            ^',
      '',
      'Error [ERR_UNKNOWN_BUILTIN_MODULE]: No such built-in module: node:sqlite',
      '    at Module._load (node:internal/modules/cjs/loader:1031:13)',
    ].join('\n');
    const [failure, ...others] = describeInstallFailure(output, 1, false);
    assert.deepEqual(others, []);
    assert.equal(failure!.name, 'install: pnpm');
    assert.match(
      failure!.message,
      /^pnpm 11\.13\.1, the version the repository's packageManager names, needs Node\.js 22\.13 or newer, and sopworks runs on Node\.js 20\.20\.2 here: run sopworks under Node\.js 22\.13 or newer, or name a pnpm version that supports Node\.js 20\.20\.2 in package\.json's packageManager; the installer said: Error \[ERR_UNKNOWN_BUILTIN_MODULE\]: No such built-in module: node:sqlite$/,
    );
  });
});
