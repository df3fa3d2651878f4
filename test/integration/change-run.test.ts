/**
 * `sopworks change` on a repository sopworks did not make (test/fixtures/change-js, copied and
 * `git init`ed): the change lands on its own branch in its own work tree, one commit per artifact by
 * its role; the user's branch, work tree, index and untracked files stay exactly as they were; the
 * model is sent the map and the files it asked for, never the whole repository; and bad input is
 * refused with exit 2 before anything is written.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { main } from '../../src/apps/cli/index.ts';
import { CHANGE_FIXTURE, GREETINGS_SCENARIO, git } from '../helpers/change-repo.ts';
import { sopworks } from '../helpers/in-process.ts';
import { ROOT } from '../helpers/paths.ts';
import { BUBBLEWRAP, PYTHON, requireSystem } from '../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const FIXTURE = CHANGE_FIXTURE;
const PY_FIXTURE = path.join(ROOT, 'test', 'fixtures', 'change-py');
const SCENARIO = GREETINGS_SCENARIO;
const REQUEST = 'let greet take a language option (en or fr)';

/** A copy of a fixture as a user's repository: one commit on main. */
async function userRepository(fixture = FIXTURE, name = 'greetings'): Promise<string> {
  const dir = path.join(await tempDir('sopworks-change-'), name);
  await fs.cp(fixture, dir, { recursive: true });
  git(dir, 'init', '--quiet', '--initial-branch=main');
  git(dir, 'add', '.');
  git(dir, 'commit', '--quiet', '-m', 'greetings 0.3.0');
  return dir;
}

/** What the user would see of their repository: branch, HEAD, status (untracked included), branches. */
const stateOf = (repo: string) => ({
  branch: git(repo, 'rev-parse', '--symbolic-full-name', 'HEAD').trim(),
  head: git(repo, 'rev-parse', 'HEAD').trim(),
  status: git(repo, 'status', '--porcelain', '--untracked-files=all'),
});

describe('sopworks change (repositories sopworks did not make: JavaScript, Python)', function () {
  this.timeout(120_000);
  after(removeTempDirs);

  it("makes the change on a branch in its own work tree, leaves the user's tree alone, and sends only the map and the files asked for", async () => {
    const repo = await userRepository();
    // The repository's own TODO in a file the change edits is not the change's placeholder.
    const greet = path.join(repo, 'src', 'greet.js');
    await fs.appendFile(greet, '// TODO: drop the default greeting in 1.0\n');
    git(repo, 'commit', '--quiet', '-am', 'a TODO of its own');
    await fs.writeFile(path.join(repo, 'notes.txt'), 'my untracked notes\n');
    const before = stateOf(repo);
    const base = before.head;
    const out = path.join(path.dirname(repo), 'out');

    const result = await sopworks(['change', repo, REQUEST, '--llm', `scripted:${SCENARIO}`, '--out', out], { cwd: ROOT });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /Outcome\s+done — the existing tests and the change's tests pass/);
    assert.match(result.stdout, /Completeness\s+100%/);

    // The user's repository: same branch, same HEAD, same status, untracked file untouched.
    assert.deepEqual(stateOf(repo), before);
    assert.equal(await fs.readFile(path.join(repo, 'notes.txt'), 'utf8'), 'my untracked notes\n');
    await assert.rejects(fs.stat(path.join(repo, '.sopworks')));

    // The branch a maintainer reviews: the change alone — a commit per file saying what it does, the tests
    // titled by the change request — and nothing of how it was made.
    const branch = 'sopworks/let-greet-take-language-option';
    const log = git(repo, 'log', '--reverse', '--format=%an|%s', `${base}..${branch}`).trim().split('\n');
    assert.deepEqual(log, ['Engineer|feat: Greetings in French (src/greet.js)', 'QA Engineer|test: Greetings in French']);
    assert.equal(git(repo, 'merge-base', base, branch).trim(), base);
    const changed = git(repo, 'diff', '--name-status', `${base}...${branch}`).trim().split('\n').sort();
    assert.deepEqual(changed, ['A\ttest/greet-lang.test.js', 'M\tsrc/greet.js']);
    // The documents are in the run folder, and the end says where, and how to review, merge and remove the work tree.
    const documents = path.join(out, 'greetings-let-greet-take-language-option', '.sopworks', 'documents');
    assert.deepEqual((await fs.readdir(documents, { recursive: true })).sort(), [
      'baseline-tests.md',
      'change-request.md',
      'design.md',
      'repository-map.md',
      'tasks.md',
      'test-reports',
      'test-reports/coverage.md',
      'test-reports/round-1.md',
    ]);
    assert.match(await fs.readFile(path.join(documents, 'change-request.md'), 'utf8'), /^# Change request — Greetings in French/);
    assert.match(result.stdout, /^Change request: Greetings in French — /m);
    assert.match(result.stdout, /^Its documents \(not on the branch\): .*\.sopworks\/documents\/ /m);
    assert.match(result.stdout, /^The change is 2 commits on sopworks\/let-greet-take-language-option, from main \([0-9a-f]{12}\):$/m);
    assert.match(result.stdout, /^ {2}merge it: {3}git -C .*greetings merge sopworks\/let-greet-take-language-option$/m);
    assert.match(result.stdout, /^ {2}then remove its work tree: {2}git -C .*greetings worktree remove .*greetings-let-greet-take-language-option /m);
    assert.doesNotMatch(result.stdout, /Do not merge/);
    const diff = git(repo, 'diff', `${base}...${branch}`, '--', 'src/greet.js');
    assert.match(diff, /\+export function greet\(name, \{ lang = 'en' \} = \{\}\) \{/);
    assert.match(diff, /-export function greet\(name\) \{/);
    assert.ok(
      git(repo, 'show', `${branch}:src/greet.js`).endsWith(
        'export function shout(text) {\n  return text.toUpperCase();\n}\n// TODO: drop the default greeting in 1.0\n',
      ),
      'the rest of the file is untouched',
    );

    // The run's state lives in the change's work tree (git ignores it there), not in a commit.
    const worktree = path.join(out, 'greetings-let-greet-take-language-option');
    assert.equal(git(worktree, 'status', '--porcelain'), '');
    assert.ok(!git(repo, 'ls-tree', '-r', '--name-only', branch).includes('.sopworks'));

    // What the model was sent: the map (interfaces, not bodies), the file it asked for, the refusal of the binary one.
    const exchanges = (await fs.readFile(path.join(worktree, '.sopworks', 'exchanges.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const sent = (action: string) =>
      exchanges
        .filter((e) => e.action === action)
        .map((e) => e.messages.map((m: { content: string }) => m.content).join('\n'))
        .join('\n');
    assert.match(
      sent('write_change_request'),
      /`src\/greet\.js`:\n```\nexport function greet\(name\) \{\n⋮\nexport function shout\(text\) \{\n```/,
      'the map carries the signatures',
    );
    assert.match(sent('write_change_request'), /^export function ledgerTotal\(rows\) \{$/m);
    assert.match(
      sent('write_change_request'),
      /Test files: 1 \(such as `test\/greet\.test\.js`\)\. The repository runs them with \(its own command first; where each was read\):\n- `npm test` — package\.json scripts\.test: node --test\n/,
    );
    assert.doesNotMatch(exchanges.map((e) => JSON.stringify(e.messages)).join('\n'), /LEDGER_BODY_MARKER/, 'a file nobody asked for is never sent whole');
    assert.match(sent('write_design_delta'), /### src\/greet\.js\n```\n\/\/ Greetings for people\./, 'the requested file is sent');
    assert.match(sent('write_design_delta'), /Not read: `assets\/logo\.png`: a binary file/);
    // Each role is who a change needs: the Product Manager writes a change request, not a PRD.
    // Who the role is, after the documents the request opens with (the system prompt is the same for every role).
    const call = (action: string) => exchanges.find((e) => e.action === action).messages as { content: string }[];
    const part = (action: string) => /# Your part\n[\s\S]*?(?=\n\n(?!Constraints:))/.exec(call(action)[1]!.content)?.[0] ?? '';
    assert.match(
      part('write_change_request'),
      /^# Your part\nYou are Alice, the Product Manager\.\nYour goal: Turn the client's one-line change to an existing repository into a precise, testable change request/,
    );
    for (const action of ['write_change_request', 'write_design_delta', 'edit_file', 'write_change_tests']) {
      assert.equal(call(action)[0]!.content, call('write_change_request')[0]!.content, 'one system prompt');
      assert.doesNotMatch(`${call(action)[0]!.content}\n${part(action)}`, /\bPRD\b|product requirements/i, `${action}'s role speaks of a PRD`);
    }

    // `review` shows the change against its base.
    const review = await sopworks(['review', worktree], { cwd: ROOT });
    assert.equal(review.code, 0, review.stderr);
    assert.match(
      review.stdout,
      new RegExp(`Change of ${repo.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} on branch ${branch}, from main \\(${base.slice(0, 12)}\\)`),
    );
    assert.match(review.stdout, /src\/greet\.js +\| +\d+ \+*-*\n/);
    // Its documents are listed where they are: in the run folder, not a commit still to come.
    assert.match(
      review.stdout,
      /ChangeRequest +product-manager +docs\/changes\/1-let-greet-take-language-option\/change-request\.md +run folder \(\.sopworks\/documents\/\)/,
    );
    assert.doesNotMatch(review.stdout, /not committed yet/);

    // The edit whose SEARCH text was found twice was re-asked with where, never applied.
    const edits = exchanges.filter((e) => e.action === 'edit_file');
    assert.equal(edits.length, 2);
    assert.match(edits[0].error, /its SEARCH text is in src\/greet\.js 3 times \(at lines 5, 6, 10\)/);
    assert.equal(edits[1].ok, true);
    // The review saw the diff, and the criteria it judges it by: those its task names, what must keep working.
    assert.match(sent('review_edit'), /```diff\n--- a\/src\/greet\.js\n\+\+\+ b\/src\/greet\.js/);
    // The review names the criteria by id: their text is in the change request its request opens with.
    assert.match(sent('review_edit'), /### 3\. The change request's acceptance criteria it serves \(in the change request above\)\n- AC-1\n/);
    assert.match(sent('review_edit'), /### 4\. What must keep working: the change may break none of it \(in the change request above\)\n- KW-1\n/);
    assert.match(
      sent('review_edit'),
      /^- AC-1: greet\("Ada", \{ lang: "fr" \}\) returns "Bonjour, Ada !"\.[\s\S]*^- KW-1: greet's English greeting[\s\S]*# Your part/m,
    );
  });

  it('changes a Python repository: its unittest suite runs on the base, then old and new tests pass', async function () {
    // Python's tests run only in bubblewrap (the light sandbox is Node's): without it, change refuses them.
    requireSystem(this, PYTHON, BUBBLEWRAP);
    const repo = await userRepository(PY_FIXTURE, 'textstats');
    const before = stateOf(repo);
    const out = path.join(path.dirname(repo), 'out');
    const result = await sopworks(['change', repo, '--llm', `scripted:${path.join(ROOT, 'examples', 'change-textstats.yaml')}`, '--out', out], { cwd: ROOT });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /tests base: passed \(3 passed, 0 failed\)/);
    assert.match(result.stdout, /tests round 1: passed \(6 passed, 0 failed\)/);
    assert.deepEqual(stateOf(repo), before);
    const branch = 'sopworks/make-word-count-accept-pathlib-path';
    const diff = git(repo, 'diff', `${before.head}...${branch}`, '--', 'textstats/core.py');
    assert.match(diff, /\+from pathlib import Path/);
    assert.match(diff, /\+    if isinstance\(text, Path\):/);
    assert.ok(git(repo, 'ls-tree', '-r', '--name-only', branch).split('\n').includes('tests/test_path.py'));
    // The test rounds imported every module, and left no __pycache__/ behind: the work tree holds the branch and the run's record.
    const worktree = path.join(out, 'textstats-make-word-count-accept-pathlib-path');
    assert.equal(git(worktree, 'status', '--porcelain', '--ignored'), '!! .sopworks/\n');
  });

  it('edits a file too long to show whole: its editor is shown its start, the parts its task names and its end, and the edit applies to all of it (trial express48: History.md, 127 KB, was refused)', async () => {
    const repo = await userRepository();
    const greet = path.join(repo, 'src', 'greet.js');
    const padding = Array.from({ length: 800 }, (_, i) => `// notes on greetings, line ${i + 1} of a long history kept in the file`);
    await fs.appendFile(greet, `${padding.join('\n')}\n`);
    git(repo, 'commit', '--quiet', '-am', 'a long history');
    const out = path.join(path.dirname(repo), 'out');
    const result = await sopworks(['change', repo, REQUEST, '--llm', `scripted:${SCENARIO}`, '--out', out], { cwd: ROOT });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /Outcome\s+done/);
    const branch = 'sopworks/let-greet-take-language-option';
    const edited = git(repo, 'show', `${branch}:src/greet.js`);
    assert.match(edited, /export function greet\(name, \{ lang = 'en' \} = \{\}\) \{/);
    assert.ok(edited.endsWith(`${padding.at(-1)}\n`), 'the end of the file, never shown whole, is intact');
    const worktree = path.join(out, 'greetings-let-greet-take-language-option');
    const edits = (await fs.readFile(path.join(worktree, '.sopworks', 'exchanges.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { action: string; messages: { content: string }[] })
      .filter((e) => e.action === 'edit_file');
    const prompt = edits[0]!.messages.at(-1)!.content;
    const lines = 10 + padding.length;
    assert.match(prompt, new RegExp(`It has ${lines} lines, too many to show whole: shown here are its start(, the lines around [^\\n]+)? and its end`));
    assert.match(prompt, new RegExp(`^… \\(lines \\d+–\\d+ of ${lines} not shown\\)$`, 'm'));
    assert.ok(prompt.length < 24_000 + 20_000, `the prompt carries part of the file (${prompt.length} characters)`);
    // QA is shown it in part too: its start, the part around the edit, its end.
    const qa = JSON.parse(
      (await fs.readFile(path.join(worktree, '.sopworks', 'exchanges.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .find((line) => line.includes('"action":"write_change_tests"'))!,
    ) as { messages: { content: string }[] };
    const shown = qa.messages.at(-1)!.content;
    assert.match(shown, new RegExp(`### src/greet\\.js\\n\`\`\`\\n[^]*?^… \\(lines \\d+–\\d+ of ${edited.trimEnd().split('\n').length} not shown\\)$`, 'm'));
    assert.match(shown, /export function greet\(name, \{ lang = 'en' \} = \{\}\) \{/);
    assert.ok(!shown.includes(padding[400]!), 'the middle of the history is left out');
  });

  it("changes the demo's repository: npm run demo, then npm run demo:change", async () => {
    const out = await tempDir('sopworks-demo-change-');
    const demo = await sopworks(['run', '--llm', `scripted:${path.join(ROOT, 'examples', 'wordfreq.yaml')}`, '--out', out], { cwd: ROOT });
    assert.equal(demo.code, 0, demo.stdout + demo.stderr);
    const repo = path.join(out, 'wordfreq');
    const before = stateOf(repo);
    const change = await sopworks(['change', repo, '--llm', `scripted:${path.join(ROOT, 'examples', 'wordfreq-change.yaml')}`, '--out', out], { cwd: ROOT });
    assert.equal(change.code, 0, change.stdout + change.stderr);
    // The base's tests and the change's (one per test() in QA's reply), together.
    const base = Number(change.stdout.match(/tests base: passed \((\d+) passed, 0 failed\)/)?.[1]);
    const scenario = await fs.readFile(path.join(ROOT, 'examples', 'wordfreq-change.yaml'), 'utf8');
    const added = scenario.slice(scenario.indexOf('action: write_change_tests')).match(/^ {6}test\(/gm)?.length ?? 0;
    assert.ok(base > 0 && added > 0, change.stdout);
    assert.match(change.stdout, new RegExp(`tests round 1: passed \\(${base + added} passed, 0 failed\\)`));
    // Done means covered: every criterion of the change request, what it must keep working too, is proven.
    assert.match(change.stdout, /^ {2}Criteria {7}(\d+) of \1 proven \(P0: \1 of \1\)$/m);
    assert.match(change.stdout, /edit_file src\/cli\.js: reply invalid \(attempt 1\), asking again — block 1 of 1: its SEARCH text is not in src\/cli\.js/);
    assert.deepEqual(stateOf(repo), before);
    assert.match(
      git(repo, 'diff', `${before.head}...sopworks/add-json-flag`, '--', 'src/cli.js'),
      /\+    if \(values\.json\) io\.out\(formatJson\(entries\)\);/,
    );
  });

  describe('refuses bad input with exit 2 before anything is written', () => {
    // In process (main() as bin/sopworks.js calls it): each check costs milliseconds, not a Node start-up.
    const refused = async (repo: string, args: string[], message: RegExp, scenario = SCENARIO, out = path.join(path.dirname(repo), 'out-refused')) => {
      const before = await fs.stat(path.join(repo, '.git')).then(
        () => stateOf(repo),
        () => null,
      );
      const err: string[] = [];
      const code = await main(['node', 'sopworks', 'change', repo, ...args, '--llm', `scripted:${scenario}`, '--out', out], {
        out: () => {},
        err: (line) => err.push(line),
      });
      assert.equal(code, 2, err.join('\n'));
      assert.match(err.join('\n'), message);
      await assert.rejects(fs.stat(out), 'nothing was written');
      if (before) assert.deepEqual(stateOf(repo), before);
    };

    it('a folder that is not a git repository', async () => {
      const dir = await tempDir();
      await refused(dir, [REQUEST], /is not the top folder of a git repository/);
    });
    it('a dirty work tree', async () => {
      const repo = await userRepository();
      await fs.appendFile(path.join(repo, 'src', 'greet.js'), '// edited\n');
      await refused(repo, [REQUEST], /has uncommitted changes \(src\/greet\.js\)/);
    });
    it('a detached HEAD without --base', async () => {
      const repo = await userRepository();
      git(repo, 'checkout', '--quiet', '--detach');
      await refused(repo, [REQUEST], /has a detached HEAD/);
    });
    it('an unknown base', async () => {
      const repo = await userRepository();
      await refused(repo, [REQUEST, '--base', 'no-such-branch'], /Unknown base "no-such-branch"/);
    });
    it('a branch that exists, without --force', async () => {
      const repo = await userRepository();
      git(repo, 'branch', 'sopworks/let-greet-take-language-option');
      await refused(repo, [REQUEST], /The branch sopworks\/let-greet-take-language-option already exists/);
    });
    it('an --out inside the repository', async () => {
      const repo = await userRepository();
      await refused(repo, [REQUEST], /would be inside the repository/, SCENARIO, path.join(repo, 'output'));
    });
    /** A git repository of `files`, committed on main, in a folder named `name`. */
    const goRepository = async (name: string, files: Record<string, string>) => {
      const repo = path.join(await tempDir('sopworks-change-'), name);
      await fs.mkdir(repo);
      for (const [file, text] of Object.entries(files)) await fs.writeFile(path.join(repo, file), text);
      git(repo, 'init', '--quiet', '--initial-branch=main');
      git(repo, 'add', '.');
      git(repo, 'commit', '--quiet', '-m', name);
      return repo;
    };
    /** Runs `body` with a PATH of git and, when `withGo`, a `go` that is never run (the checks read the files). */
    const onlyGitOnPath = async (withGo: boolean, body: () => Promise<void>) => {
      const bin = await tempDir('sopworks-path-');
      await fs.symlink(execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim(), path.join(bin, 'git'));
      if (withGo) await fs.writeFile(path.join(bin, 'go'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
      const saved = process.env.PATH;
      process.env.PATH = bin;
      try {
        await body();
      } finally {
        process.env.PATH = saved;
      }
    };
    it("a repository whose tests need a program this machine lacks (Go's, here), naming what to install", async () => {
      const repo = await goRepository('homedir', {
        'go.mod': 'module example.com/homedir\n\ngo 1.19\n',
        'homedir.go': 'package homedir\n\nfunc Dir() string { return "" }\n',
        'homedir_test.go': 'package homedir\n\nimport "testing"\n\nfunc TestDir(t *testing.T) {}\n',
      });
      await onlyGitOnPath(false, () =>
        refused(
          repo,
          [REQUEST],
          /`go test \.\/\.\.\.` \(go\.mod: Go test files \(\*_test\.go\)\) needs `go`, which is not on this machine's PATH[\s\S]*Install Go \(Debian: apt-get install golang-go/,
        ),
      );
    });
    it("a Go repository whose tests could not build here: no go.mod (pkg/errors' shape), or modules nothing fetches", async () => {
      const repo = await goRepository('errors', {
        'errors.go': 'package errors\n\nfunc New(text string) error { return nil }\n',
        'errors_test.go': 'package errors\n\nimport "testing"\n\nfunc TestNew(t *testing.T) {}\n',
        Makefile: 'test:\n\tgo test github.com/pkg/errors\n',
      });
      await onlyGitOnPath(true, async () => {
        await refused(
          repo,
          [REQUEST],
          /The repository's tests cannot build here: the repository has Go test files but no go\.mod, and Go 1\.16 and later build only in a module\.[\s\S]*Nothing was written and no model was asked\.[\s\S]*add a go\.mod \(`go mod init/,
        );
        await fs.writeFile(path.join(repo, 'go.mod'), 'module github.com/pkg/errors\n\ngo 1.19\n\nrequire github.com/google/uuid v1.3.0\n');
        git(repo, 'add', '.');
        git(repo, 'commit', '--quiet', '-m', 'a module');
        await refused(
          repo,
          [REQUEST],
          /go\.mod requires a module \(github\.com\/google\/uuid\) that nothing here fetches[\s\S]*`go mod vendor`, commit vendor\//,
        );
      });
    });
    it('an empty request', async () => {
      const repo = await userRepository();
      // A scenario with a spec would supply the request: this one has none.
      const scenario = path.join(path.dirname(repo), 'no-spec.yaml');
      await fs.writeFile(scenario, (await fs.readFile(SCENARIO, 'utf8')).replace(/^spec: .*\n/m, ''));
      await refused(repo, ['   '], /The change request is empty/, scenario);
    });
  });
});
