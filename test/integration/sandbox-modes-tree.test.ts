/**
 * The same scenario gives the same tree in every sandbox mode. A run whose first test round fails with
 * messages that name where the tests ran (the working folder, the test file's URL) is made under
 * bubblewrap, under Node's permission model (the fallback), and — its tests started through python3,
 * which the fallback cannot confine — unsandboxed (--allow-unsandboxed). Outside bubblewrap the tests run in a scratch copy under the system's
 * temp folder: its path must reach neither the committed reports nor any prompt, and each round's
 * failure fingerprint must not depend on it.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { type Scenario, ScriptedProvider } from '../../src/capabilities/model/index.ts';
import { loadCompany, startRun } from '../../src/company/index.ts';
import type { TestReport } from '../../src/documents/index.ts';
import { readAppendLog } from '../../src/ground/files/index.ts';
import { DEFAULT_LIMITS, type ModeSetting } from '../../src/host/sandbox/index.ts';
import { ROLES, SOPS } from '../helpers/paths.ts';
import { demoScenario } from '../helpers/run-company.ts';
import { BUBBLEWRAP, PYTHON, requireSystem } from '../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const exec = promisify(execFile);

/** A test that fails in round 1 (tokenize is buggy there) saying where it ran. */
const WHERE_TEST = `
test('tokenize works wherever the tests run', () => {
  assert.deepEqual(tokenize('Hi, there!'), ['hi', 'there'], \`tokenize failed in \${process.cwd()} (\${import.meta.url})\`);
});
`;

/** The demo, with that test, and with its tests run by `command` (the design's testCommand). */
async function scenarioRunningTestsWith(command: string[]): Promise<Scenario> {
  const demo = await demoScenario();
  return {
    ...demo,
    replies: demo.replies.map((r) => {
      if (r.action === 'write_design' && r.reply) {
        return { ...r, reply: r.reply.replace(/"testCommand": \[\s*"node",\s*"--test"\s*\]/, `"testCommand": ${JSON.stringify(command)}`) };
      }
      if (r.action === 'write_tests' && r.reply) return { ...r, reply: r.reply.replace(/\n```\s*$/, `${WHERE_TEST}\`\`\`\n`) };
      return r;
    }),
  };
}

interface ModeRun {
  tree: string;
  /** Every committed file and its blob, but those that name the test command (design, README) and the reports. */
  files: string;
  reports: string;
  modes: string[];
  signatures: string[];
  prompts: string;
}

async function runIn(scenario: Scenario, mode: ModeSetting, allowUnsandboxed: boolean): Promise<ModeRun> {
  const project = path.join(await tempDir(), 'wordfreq');
  const result = await startRun({
    llm: { kind: 'scripted', file: 'scenario' },
    spec: scenario.spec ?? 'wordfreq',
    project: 'wordfreq',
    projectDir: project,
    company: await loadCompany(SOPS, ROLES),
    provider: new ScriptedProvider('scripted:test', scenario),
    maxRepairs: 2,
    sandbox: { mode, limits: DEFAULT_LIMITS, allowUnsandboxed },
  });
  assert.equal(result.outcome, 'done', `${mode}: ${result.reason}`);
  const reports = result.messages.filter((m) => m.type === 'TestReport').map((m) => m.payload as TestReport);
  const folder = path.join(project, 'docs', 'test-reports');
  const pages = await Promise.all((await fs.readdir(folder)).sort().map(async (f) => `${f}\n${await fs.readFile(path.join(folder, f), 'utf8')}`));
  const { records } = await readAppendLog(path.join(project, '.sopworks', 'exchanges.jsonl'));
  return {
    tree: (await exec('git', ['rev-parse', 'HEAD^{tree}'], { cwd: project })).stdout.trim(),
    files: (await exec('git', ['ls-tree', '-r', 'HEAD'], { cwd: project })).stdout
      .split('\n')
      .filter((line) => !/\t(?:docs\/design\.md|README\.md|docs\/test-reports\/)/.test(line))
      .join('\n'),
    reports: pages.join('\n'),
    modes: [...new Set(reports.map((r) => r.sandbox?.mode ?? 'none'))],
    signatures: reports.map((r) => r.signature),
    prompts: (records as { messages: { content: string }[] }[]).map((r) => r.messages.map((m) => m.content).join('\n')).join('\n'),
  };
}

describe('the same scenario gives the same tree in every sandbox mode', function () {
  this.timeout(180_000);
  let bubblewrap: ModeRun;
  let fallback: ModeRun;
  let unsandboxed: ModeRun;
  after(removeTempDirs);

  before(async function () {
    requireSystem(this, BUBBLEWRAP, PYTHON);
    // The same tests, run by node itself (the fallback confines it), and through python3 (which it cannot).
    const [byNode, byPython] = await Promise.all([
      scenarioRunningTestsWith(['node', '--test']),
      scenarioRunningTestsWith(['python3', '-c', "import subprocess, sys; sys.exit(subprocess.call(['node', '--test']))"]),
    ]);
    [bubblewrap, fallback, unsandboxed] = await Promise.all([
      runIn(byNode, 'auto', false),
      runIn(byNode, 'fallback', false),
      runIn(byPython, 'fallback', true),
    ]);
  });

  it('ran each in the mode it was meant for', () => {
    assert.deepEqual(bubblewrap.modes, ['bubblewrap']);
    assert.deepEqual(fallback.modes, ['node-permissions']);
    assert.deepEqual(unsandboxed.modes, ['unsandboxed']);
  });

  it('commits the same tree under bubblewrap and the Node fallback, and the same files unsandboxed', () => {
    assert.equal(fallback.tree, bubblewrap.tree);
    // Unsandboxed, only what names the other test command differs (the design, the README).
    assert.equal(unsandboxed.files, bubblewrap.files);
  });

  it('commits the same test reports in every mode, naming where the tests ran as `.`', () => {
    assert.match(bubblewrap.reports, /tokenize failed in \. \(file:\/\/\.\/test\/wordfreq\.test\.js\)/);
    assert.equal(fallback.reports, bubblewrap.reports);
    const command = /^Command: .*$/gm;
    assert.equal(unsandboxed.reports.replace(command, 'Command: …'), bubblewrap.reports.replace(command, 'Command: …'));
    assert.doesNotMatch(bubblewrap.reports, /bubblewrap|node-permissions|NOT SANDBOXED|WEAKER/);
  });

  it('gives each round the same failure fingerprint in every mode', () => {
    assert.equal(bubblewrap.signatures.length, 2);
    assert.deepEqual(fallback.signatures, bubblewrap.signatures);
    assert.deepEqual(unsandboxed.signatures, bubblewrap.signatures);
  });

  it("puts no scratch copy's or temp folder's path in any prompt", () => {
    const tmp = os.tmpdir();
    for (const run of [fallback, unsandboxed]) {
      assert.doesNotMatch(run.prompts, /sopworks-work-|sopworks-sandbox-/);
      assert.ok(!run.prompts.includes(`${tmp}/`), `a prompt names ${tmp}`);
    }
    assert.match(fallback.prompts, /tokenize failed in \. /);
  });
});
