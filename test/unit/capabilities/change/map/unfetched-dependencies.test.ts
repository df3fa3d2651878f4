/**
 * A Go or Rust repository's dependencies, which nothing here fetches (src/capabilities/change/map/
 * unfetched-dependencies.ts): read from go.mod and Cargo.toml in the shapes real repositories have —
 * pkg/errors' file list (Go test files, no go.mod), go.mod's require blocks, comments and replacements,
 * itoa's Cargo.toml (an optional dependency, a target's dev-dependency), a workspace — and none when the
 * repository vendors them. checkToolchains refuses such a change before any model is asked.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { checkToolchains } from '../../../../../src/capabilities/change/check-toolchains.ts';
import { goRequirements, unfetchedDependencies } from '../../../../../src/capabilities/change/map/unfetched-dependencies.ts';
import { committedRepository } from '../../../../helpers/committed-repository.ts';
import { removeTempDirs, tempDir } from '../../../../helpers/temp-dir.ts';

const unfetched = (files: Record<string, string>, others: string[] = []) =>
  unfetchedDependencies([...Object.keys(files), ...others], async (file) => files[file] ?? null);

const PKG_ERRORS = [
  '.travis.yml',
  'LICENSE',
  'Makefile',
  'README.md',
  'errors.go',
  'errors_test.go',
  'example_test.go',
  'go113.go',
  'stack.go',
  'stack_test.go',
];

const GO_MOD = `module github.com/example/tool

go 1.21

require (
\tgithub.com/spf13/pflag v1.0.5 // indirect
\tgolang.org/x/sys v0.15.0
\texample.com/internal/util v0.0.0
)

require gopkg.in/yaml.v3 v3.0.1

// require example.com/commented v1.0.0
replace example.com/internal/util => ./internal/util

replace golang.org/x/sys => golang.org/x/sys v0.14.0
`;

const ITOA = `[package]
name = "itoa"
version = "1.0.18"

[dependencies]
no-panic = { version = "0.1", optional = true }

[target.'cfg(not(miri))'.dev-dependencies]
criterion = { version = "0.8", default-features = false }

[[bench]]
name = "bench"
harness = false
`;

describe("a Go or Rust repository's dependencies, which nothing here fetches", () => {
  after(removeTempDirs);

  it('Go: test files without any go.mod cannot build; a go.mod in a subfolder, or no Go tests, is no matter here', async () => {
    const [none] = await unfetched({}, PKG_ERRORS);
    assert.equal(none!.manifest, 'go.mod');
    assert.match(none!.what, /^the repository has Go test files but no go\.mod, and Go 1\.16 and later build only in a module$/);
    assert.match(none!.remedy, /go mod init/);
    assert.deepEqual(await unfetched({}, [...PKG_ERRORS, 'cmd/tool/go.mod']), []);
    assert.deepEqual(await unfetched({}, ['main.go', 'README.md']), []);
  });

  it("Go: a go.mod's requirements, less those replaced by a folder and those commented out; none once vendored", async () => {
    assert.deepEqual(goRequirements(GO_MOD), ['github.com/spf13/pflag', 'golang.org/x/sys', 'gopkg.in/yaml.v3']);
    const [mod] = await unfetched({ 'go.mod': GO_MOD }, ['tool.go', 'tool_test.go']);
    assert.equal(mod!.what, 'go.mod requires 3 modules (github.com/spf13/pflag, golang.org/x/sys, gopkg.in/yaml.v3) that nothing here fetches');
    assert.equal(mod!.remedy, '`go mod vendor`, commit vendor/');
    assert.deepEqual(await unfetched({ 'go.mod': GO_MOD, 'vendor/modules.txt': '' }, ['tool_test.go']), []);
    // go-cmp's go.mod: a module and its Go version, nothing required.
    assert.deepEqual(await unfetched({ 'go.mod': 'module github.com/google/go-cmp\n\ngo 1.21\n' }, ['cmp/compare_test.go']), []);
  });

  it("Rust: registry and git crates of every dependency table, but not a path, the workspace's own, or an optional one", async () => {
    const [itoa] = await unfetched({ 'Cargo.toml': ITOA }, ['src/lib.rs', 'tests/test.rs']);
    assert.equal(itoa!.what, 'Cargo.toml depends on a crate (criterion) that nothing here fetches');
    assert.match(itoa!.remedy, /`cargo vendor`, add the `\[source\]` lines it prints to \.cargo\/config\.toml/);
    const workspace = {
      'Cargo.toml': '[workspace]\nmembers = ["crates/*"]\n\n[workspace.dependencies]\nserde = "1"\nlocal = { path = "crates/local" }\n',
      'crates/app/Cargo.toml':
        '[package]\nname = "app"\n\n[dependencies]\nserde = { workspace = true }\nlocal = { path = "../local" }\nregex = { git = "https://github.com/rust-lang/regex" }\n\n[build-dependencies]\ncc = "1"\n',
      'crates/local/Cargo.toml': '[package]\nname = "local"\n',
    };
    assert.deepEqual(
      (await unfetched(workspace)).map((u) => u.what),
      ['Cargo.toml depends on a crate (serde) that nothing here fetches', 'crates/app/Cargo.toml depends on 2 crates (regex, cc) that nothing here fetches'],
    );
    const vendored = '[source.crates-io]\nreplace-with = "vendored-sources"\n\n[source.vendored-sources]\ndirectory = "vendor"\n';
    assert.deepEqual(await unfetched({ 'Cargo.toml': ITOA, '.cargo/config.toml': vendored }), []);
    assert.deepEqual(await unfetched({ 'Cargo.toml': '[package]\nname = "fallible-iterator"\n\n[features]\ndefault = ["alloc"]\nalloc = []\n' }), []);
  });

  it('refuses the change before any model is asked, saying what to do in the repository', async () => {
    const dir = await tempDir('sopworks-unfetched-');
    const repo = async (files: Record<string, string>) => {
      await fs.rm(dir, { recursive: true, force: true });
      return (await committedRepository(files, dir)).base;
    };
    const onPath = (program: string) => `/usr/bin/${program}`;
    const withGoMod = await repo({ 'go.mod': GO_MOD, 'tool.go': 'package tool\n', 'tool_test.go': 'package tool\n' });
    await assert.rejects(checkToolchains(dir, withGoMod, onPath), (error: Error & { hint?: string }) => {
      assert.match(
        error.message,
        /^The repository's tests cannot build here: go\.mod requires 3 modules \(.*\) that nothing here fetches\. sopworks installs npm and pip dependencies, not Go modules or Rust crates, and the tests' sandbox has no network\. Nothing was written and no model was asked\.$/,
      );
      assert.match(error.hint ?? '', /^In the repository: `go mod vendor`, commit vendor\/; then run the change again/);
      return true;
    });
    const vendored = await repo({
      'go.mod': GO_MOD,
      'vendor/modules.txt': '# golang.org/x/sys v0.14.0\n',
      'tool.go': 'package tool\n',
      'tool_test.go': 'package tool\n',
    });
    await checkToolchains(dir, vendored, onPath);
  });
});
