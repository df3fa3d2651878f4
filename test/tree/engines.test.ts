import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';

/**
 * `npm install` on a supported Node prints no engine warning (issue 38, Must 10): every package the lock
 * file installs — dependencies and dev tools alike — accepts the oldest Node that package.json's
 * `engines` admits, and the Node running this test. A tool that needs a newer Node is pinned to a
 * version that does not, or `engines` is raised to what it needs.
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8'));

describe("the packages installed accept every Node that package.json's engines admits", () => {
  const ours: string = readJson('package.json').engines.node;
  const lock: { packages: Record<string, { engines?: unknown }> } = readJson('package-lock.json');
  /** Each installed package's `engines.node` range (some packages give `engines` as a list: npm ignores those). */
  const ranges = Object.entries(lock.packages).flatMap(([where, entry]) => {
    const engines = entry.engines;
    const node = engines && typeof engines === 'object' && !Array.isArray(engines) ? (engines as { node?: unknown }).node : undefined;
    return typeof node === 'string' && where !== '' ? [{ where, node }] : [];
  });

  it('the oldest Node admitted, and the one running this, satisfy every installed package', () => {
    assert.ok(ranges.length > 100, `the lock file lists the packages' engines (${ranges.length})`);
    for (const version of [semver.minVersion(ours)!.version, process.versions.node]) {
      if (!semver.satisfies(version, ours)) continue;
      const refused = ranges.filter(({ node }) => !semver.satisfies(version, node, { includePrerelease: true }));
      assert.deepEqual(
        refused.map(({ where, node }) => `${where.replace(/^node_modules\//, '')} needs Node ${node}`),
        [],
        `Node ${version} (package.json: ${ours}) would get an EBADENGINE warning`,
      );
    }
  });
});
