/**
 * The authorization policy's rules and where they are enforced: which role may write which path, who
 * may run what; a commit the workspace refuses; a reply the gateway sends back to its role.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Gateway, PromptRenderer, ScriptedProvider, UsageMeter } from '../../../../src/capabilities/model/index.ts';
import { commandRefusal, isInstallCommand } from '../../../../src/capabilities/policy/may-run.ts';
import { writeRefusal, writeRefusals } from '../../../../src/capabilities/policy/may-write.ts';
import { DEFAULT_POLICY, type Policy } from '../../../../src/capabilities/policy/policy-file.ts';
import { Workspace } from '../../../../src/capabilities/repository/index.ts';
import { markdownRenderers } from '../../../../src/company/index.ts';
import { loadRoleProfile } from '../../../../src/engine/roles/index.ts';
import { SopworksError } from '../../../../src/ground/errors.ts';
import { AppendLog, readAppendLog } from '../../../../src/ground/files/index.ts';
import { ROLES } from '../../../helpers/paths.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

const policy = DEFAULT_POLICY;
const allowed = (role: string, file: string) => writeRefusal(policy, role, file) === null;

describe('policy rules', () => {
  after(removeTempDirs);

  it('lets each role of the default company write its own artifacts, and nobody the machinery or CI', () => {
    assert.ok(allowed('product-manager', 'docs/prd.md'));
    assert.ok(allowed('architect', 'docs/design.md') && allowed('architect', 'docs/tasks.md'));
    // README.md is a file of the design like any other: the Engineer writes it, not sopworks for the Architect.
    assert.ok(allowed('engineer', 'README.md') && !allowed('architect', 'README.md'));
    for (const file of ['src/count.js', 'package.json', 'wordfreq/__init__.py', 'pyproject.toml', '.eslintrc.json']) assert.ok(allowed('engineer', file), file);
    for (const file of ['test/wordfreq.test.js', 'tests/test_count.py', 'src/count.test.ts', 'docs/test-reports/round-1.md', 'docs/bug-reports/bug-1.md'])
      assert.ok(allowed('qa', file), file);
    for (const role of ['engineer', 'qa', 'architect']) {
      for (const file of ['.github/workflows/ci.yml', '.gitignore', '.gitlab-ci.yml', '.sopworks/board.jsonl'])
        assert.ok(!allowed(role, file), `${role} ${file}`);
    }
  });

  it("keeps roles out of each other's files, saying which rule refuses", () => {
    assert.equal(
      writeRefusal(policy, 'engineer', 'test/wordfreq.test.js'),
      `engineer may not write "test/wordfreq.test.js": the policy excepts test/ from what it may write`,
    );
    assert.match(writeRefusal(policy, 'qa', 'src/count.js')!, /^qa may not write "src\/count\.js": the policy lets it write only test\/, tests\//);
    assert.equal(
      writeRefusal(policy, 'engineer', '.github/workflows/ci.yml'),
      `".github/workflows/ci.yml" is protected: the policy lets no role write .github/`,
    );
    assert.ok(!allowed('engineer', 'docs/design.md'), "the Architect's design is not the Engineer's");
  });

  it('puts a role the policy does not name under otherRoles: documents under docs/ only', () => {
    assert.ok(allowed('technical-writer', 'docs/USER_GUIDE.md'));
    assert.match(
      writeRefusal(policy, 'technical-writer', 'src/index.js')!,
      /^technical-writer \(not named in the policy, so under otherRoles\) may not write "src\/index\.js"/,
    );
    assert.ok(!allowed('technical-writer', 'docs/prd.md'));
  });

  it("lets QA run a Go or Rust project's own program, as it runs its tests, but not fetch one to run", () => {
    for (const argv of [
      ['go', 'run', '.'],
      ['go', 'run', './cmd/sumcheck', 'testdata/SHA256SUMS'],
      ['cargo', 'run', '--', 'input.txt'],
    ]) {
      assert.equal(commandRefusal(policy, 'qa', argv), null, argv.join(' '));
    }
    assert.match(commandRefusal(policy, 'qa', ['go', 'run', 'example.com/tool@v1.2.0'])!, /^"go run example\.com\/tool@v1\.2\.0" installs dependencies/);
    // Go's tests sit beside the code they test: QA writes them there, the Engineer does not.
    assert.ok(allowed('qa', 'checker/parse_test.go') && !allowed('engineer', 'checker/parse_test.go'));
    assert.ok(allowed('engineer', 'checker/parse.go') && !allowed('qa', 'checker/parse.go'));
  });

  it("lets QA write tsd's type tests (index.test-d.ts), and the Engineer too, beside the types it edits (trials indent47, commander47)", () => {
    assert.ok(allowed('qa', 'index.test-d.ts') && allowed('engineer', 'typings/index.test-d.ts'));
    assert.ok(allowed('engineer', 'index.d.ts') && !allowed('qa', 'index.d.ts'));
  });

  it('lets QA run the usual test runners, and nobody install dependencies from a test command', () => {
    for (const argv of [
      ['node', '--test'],
      ['npm', 'test'],
      ['python3', '-m', 'pytest'],
      ['pytest', '-q'],
      ['go', 'test', './...'],
    ]) {
      assert.equal(commandRefusal(policy, 'qa', argv), null, argv.join(' '));
    }
    assert.match(
      commandRefusal(policy, 'qa', ['sh', '-c', 'node --test'])!,
      /^qa may not run "sh -c node --test"\. Allowed by the policy: commands starting with: node; npm test;/,
    );
    assert.match(commandRefusal(policy, 'engineer', ['node', '--test'])!, /^engineer may not run "node --test"\. The policy lets engineer run no commands\.$/);
    const notInstalling: Policy = { ...policy, dependencies: { ...policy.dependencies, install: false } };
    assert.match(
      commandRefusal(notInstalling, 'qa', ['python3', '-m', 'pip', 'install', 'requests'])!,
      /installs dependencies, and .* does not allow installing them \(dependencies\.install: false\)/,
    );
    const installing: Policy = { ...policy, dependencies: { ...policy.dependencies, install: true } };
    assert.match(
      commandRefusal(installing, 'qa', ['npm', 'install'])!,
      /lets them come only from the project's manifest, installed by the installDependencies step before the tests/,
    );
  });

  it('tells installs from other package-manager commands', () => {
    for (const argv of [
      ['npm', 'install'],
      ['npm', 'i', 'x'],
      ['npm', 'ci'],
      ['yarn'],
      ['yarn', 'add', 'x'],
      ['pip', 'install', 'x'],
      ['python', '-m', 'pip', 'install', 'x'],
      ['npx', 'jest'],
      ['uv', 'sync'],
      ['go', 'get', 'x'],
      ['go', 'run', 'golang.org/x/tools/cmd/stringer@latest'],
      ['cargo', 'install', 'x'],
    ]) {
      assert.ok(isInstallCommand(argv), argv.join(' '));
    }
    for (const argv of [
      ['npm', 'test'],
      ['npm', 'run', 'test'],
      ['yarn', 'test'],
      ['python', '-m', 'pytest'],
      ['go', 'test'],
      ['go', 'run', '.'],
      ['go', 'run', './cmd/sumcheck', 'user@example.com'],
      ['cargo', 'test'],
      ['cargo', 'run', '--', 'x'],
      ['node', '--test'],
    ]) {
      assert.ok(!isInstallCommand(argv), argv.join(' '));
    }
  });

  it('has the workspace refuse a commit of a path its role may not write, writing nothing', async () => {
    const root = path.join(await tempDir(), 'project');
    const workspace = await Workspace.create(root);
    workspace.guardWrites((role, paths) => writeRefusals(policy, role, paths));
    await assert.rejects(
      workspace.commit({
        files: [{ path: '.github/workflows/ci.yml', content: 'on: push' }],
        author: { name: 'Engineer', email: 'e@x' },
        subject: 'feat: ci',
        trailers: {},
        role: 'engineer',
      }),
      (error: unknown) =>
        SopworksError.isInstance(error) &&
        error.code === 'PATH_UNSAFE' &&
        error.message === `Refused to commit "feat: ci": ".github/workflows/ci.yml" is protected: the policy lets no role write .github/.` &&
        /Nothing was written/.test(error.hint ?? ''),
    );
    await assert.rejects(fs.access(path.join(root, '.github')));
    await workspace.commit({
      files: [{ path: 'src/a.js', content: 'export {};\n' }],
      author: { name: 'Engineer', email: 'e@x' },
      subject: 'feat: a',
      trailers: {},
      role: 'engineer',
    });
    assert.deepEqual(await workspace.trackedFiles(), ['.gitignore', 'src/a.js']);
  });

  it('has the gateway send a reply with a file the role may not write back to it, with the reason', async () => {
    const reply = (files: string[]) => files.map((f) => `${f}\n\`\`\`js\nexport {};\n\`\`\``).join('\n\n');
    const provider = new ScriptedProvider('scripted:test', {
      replies: [
        { role: 'qa', action: 'write_tests', reply: reply(['test/a.test.js', 'src/a.js']) },
        { role: 'qa', action: 'write_tests', reply: reply(['test/a.test.js']) },
      ],
    });
    const logFile = path.join(await tempDir(), 'exchanges.jsonl');
    const exchanges = await AppendLog.open(logFile, { flush: 'each' });
    const gateway = new Gateway({ provider, renderer: new PromptRenderer(ROLES, markdownRenderers), meter: new UsageMeter(), exchanges, maxRepairs: 2 });
    const variables = {
      prd: {
        projectName: 'p',
        summary: 's',
        goals: ['g'],
        userStories: [{ asA: 'a', iWant: 'b', soThat: 'c' }],
        requirementPool: [{ id: 'R1', description: 'd', priority: 'P0' }],
        acceptanceCriteria: ['x'],
        openQuestions: [],
      },
      design: {
        summary: 's',
        approach: 'a',
        language: 'JavaScript',
        testCommand: ['node', '--test'],
        runCommand: null,
        files: [{ path: 'src/a.js', purpose: 'p' }],
        classDiagram: 'classDiagram',
        sequenceDiagram: 'sequenceDiagram',
      },
      files: [{ path: 'src/a.js', content: 'export {};\n' }],
      key: null,
    };
    const files = await gateway.ask({
      call: { role: 'qa', action: 'write_tests', key: null },
      profile: await loadRoleProfile(ROLES, 'qa'),
      variables,
      output: { kind: 'files' },
      occurrence: 0,
      accept: (value) => {
        const refusals = writeRefusals(
          policy,
          'qa',
          (value as { path: string }[]).map((f) => f.path),
        );
        return refusals.length > 0 ? refusals.join('; ') : null;
      },
    });
    assert.deepEqual(
      (files as { path: string }[]).map((f) => f.path),
      ['test/a.test.js'],
    );
    await exchanges.close();
    const attempts = (await readAppendLog(logFile)).records as { ok: boolean; error: string | null; messages: { content: string }[] }[];
    assert.deepEqual(
      attempts.map((a) => a.ok),
      [false, true],
    );
    assert.match(attempts[0]!.error!, /^qa may not write "src\/a\.js"/);
    assert.match(attempts[1]!.messages.at(-1)!.content, /qa may not write "src\/a\.js"/, 'the reason went back to the role');
  });
});
