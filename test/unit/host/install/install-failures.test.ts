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
