/**
 * A user's repository for `sopworks change` tests: the JavaScript fixture (test/fixtures/change-js)
 * copied and committed on main, with a scenario made from examples/change-greetings.yaml, and a check
 * that the user's branch, HEAD and status are as they were.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { sopworks } from './in-process.ts';
import { ROOT } from './paths.ts';
import { tempDir } from './temp-dir.ts';

export const CHANGE_FIXTURE = path.join(ROOT, 'test', 'fixtures', 'change-js');
export const GREETINGS_SCENARIO = path.join(ROOT, 'examples', 'change-greetings.yaml');
export const GREETINGS_BRANCH = 'sopworks/let-greet-take-language-option';

export const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CEILING_DIRECTORIES: path.dirname(cwd) },
  });

export interface Reply {
  role: string;
  action: string;
  key?: string;
  reply?: string;
  json?: unknown;
}

export interface RepoOptions {
  /** Files added to the fixture before its commit. */
  extra?: Record<string, string>;
  /** Files of the fixture left out. */
  without?: string[];
}

export async function changeSetUp(edit: (replies: Reply[]) => Reply[] = (r) => r, options: RepoOptions = {}) {
  const dir = await tempDir('sopworks-change-');
  const repo = path.join(dir, 'greetings');
  await fs.cp(CHANGE_FIXTURE, repo, { recursive: true });
  for (const [file, content] of Object.entries(options.extra ?? {})) {
    await fs.mkdir(path.dirname(path.join(repo, file)), { recursive: true });
    await fs.writeFile(path.join(repo, file), content);
  }
  for (const file of options.without ?? []) await fs.rm(path.join(repo, file), { recursive: true });
  git(repo, 'init', '--quiet', '--initial-branch=main');
  git(repo, 'add', '.');
  git(repo, 'commit', '--quiet', '-m', 'greetings');
  const scenario = parse(await fs.readFile(GREETINGS_SCENARIO, 'utf8')) as { replies: Reply[] };
  scenario.replies = edit(scenario.replies);
  const scenarioFile = path.join(dir, 'scenario.yaml');
  await fs.writeFile(scenarioFile, stringify(scenario));
  const head = git(repo, 'rev-parse', 'HEAD').trim();
  const status = git(repo, 'status', '--porcelain', '--untracked-files=all');
  return {
    dir,
    repo,
    scenarioFile,
    worktree: path.join(dir, 'out', 'greetings-let-greet-take-language-option'),
    change: (args: string[] = [], env: Record<string, string> = {}) =>
      sopworks(['change', repo, '--llm', `scripted:${scenarioFile}`, '--out', path.join(dir, 'out'), ...args], { cwd: ROOT, env }),
    untouched: () => {
      assert.equal(git(repo, 'rev-parse', 'HEAD').trim(), head);
      assert.equal(git(repo, 'symbolic-ref', 'HEAD').trim(), 'refs/heads/main');
      assert.equal(git(repo, 'status', '--porcelain', '--untracked-files=all'), status);
    },
  };
}

/**
 * How many tests QA's first reply of a scenario writes (node --test's test(), Python's def test_…, Go's
 * func Test…): a round's count is the base's and these, read from the scenario rather than written in.
 */
export async function testsQaWrites(scenarioFile: string): Promise<number> {
  const scenario = parse(await fs.readFile(scenarioFile, 'utf8')) as { replies: Reply[] };
  const reply = scenario.replies.find((r) => r.role === 'qa' && r.action === 'write_change_tests')?.reply ?? '';
  return (reply.match(/^\s*(?:test\(|def test_|func Test)/gm) ?? []).length;
}
