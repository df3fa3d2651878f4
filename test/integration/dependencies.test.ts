/**
 * Generated projects that really run, offline, against real registries on this machine: one verdaccio
 * (npm) and one --find-links page of wheels (Python) for the whole suite, with the packages the
 * scenarios need published into them by the test. The three example scenarios — JavaScript with a
 * runtime dependency, TypeScript compiled with its declared typescript, Python with a dependency in its
 * own .venv — end `done` with their tests passing and their program running, each after a draft the fast
 * checks sent back before review. Then what goes wrong: a version that does not exist (a bug report to
 * the Engineer, who fixes the manifest), a registry that is down, install scripts, a policy that forbids
 * installing, and tests that try to reach the network the install had.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { Scenario } from '../../src/capabilities/model/index.ts';
import { DEFAULT_POLICY } from '../../src/capabilities/policy/index.ts';
import { dependencyRegistries, runFastChecks } from '../../src/capabilities/project/index.ts';
import { RunRecord } from '../../src/company/index.ts';
import type { Code, DependencyInstall, TestReport } from '../../src/documents/index.ts';
import { readAppendLog } from '../../src/ground/files/index.ts';
import { checkInstall, type DependencyRegistries, installFailures, packagesWithInstallScripts, runInstall } from '../../src/host/install/index.ts';
import { DEFAULT_SANDBOX_SETTINGS, runSandboxed } from '../../src/host/sandbox/index.ts';
import { freePort, type NpmRegistry, packInstalled, startNpmRegistry } from '../helpers/npm-registry.ts';
import { ROLES, ROOT, SOPS } from '../helpers/paths.ts';
import { type PythonIndex, startPythonIndex } from '../helpers/python-index.ts';
import { type CompanyRun, runScenario } from '../helpers/run-company.ts';
import { BUBBLEWRAP, fileRequirement, PYTHON, requireSystem } from '../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const exec = promisify(execFile);
/** The distribution's own python3, whatever python3 is first on PATH (here a pyenv one, elsewhere the same). */
const SYSTEM_PYTHON = fileRequirement("the system's python3 (/usr/bin/python3)", '/usr/bin/python3', 'apt-get install -y python3 python3-venv');
const git = async (cwd: string, ...args: string[]) => (await exec('git', args, { cwd })).stdout;

const MINI_SLUG = "module.exports = (text) => String(text).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');\n";
const TINYSLUG = 'def slug(text):\n    return "-".join(text.lower().split())\n';

async function example(name: string): Promise<Scenario> {
  return Scenario.parse(parse(await fs.readFile(path.join(ROOT, 'examples', name), 'utf8')));
}

type Exchange = { role: string; action: string; key: string | null; ok: boolean };
async function callsOf(project: string): Promise<string[]> {
  const records = (await readAppendLog(path.join(project, '.sopworks', 'exchanges.jsonl'))).records as Exchange[];
  return records.filter((e) => e.role === 'engineer').map((e) => `${e.action} ${e.key}`);
}

const reportsOf = (run: CompanyRun) => run.result.messages.filter((m) => m.type === 'TestReport').map((m) => m.payload as TestReport);
const codeOf = (run: CompanyRun, file: string) =>
  run.result.messages.filter((m) => m.type === 'Code' && (m.payload as Code).path === file).map((m) => m.payload as Code);

/** The install entry point as the step uses it: checked, then run through its egress proxy. */
async function install(projectDir: string, registries: DependencyRegistries, options: { frozen?: boolean; wallSeconds?: number } = {}) {
  const check = await checkInstall({ projectDir, registries, scripts: false, frozen: options.frozen ?? false });
  assert.deepEqual(check.refusals, []);
  const plan = check.plan!;
  const run = await runInstall(
    { ...check, plan },
    {
      projectDir,
      registries,
      scripts: false,
      network: true,
      sandbox: { ...DEFAULT_SANDBOX_SETTINGS, mode: 'bubblewrap' },
      wallSeconds: options.wallSeconds ?? 120,
      frozen: options.frozen ?? false,
    },
  );
  return { plan, ...run };
}

async function figuresOf(project: string) {
  return RunRecord.parse(JSON.parse(await fs.readFile(path.join(project, '.sopworks', 'run.json'), 'utf8'))).figures!;
}

/** Asserts what every example shows: done, tests passing, the program run, one review saved, the lockfile committed. */
async function assertRanEndToEnd(run: CompanyRun, checked: { file: string; checker: string }, lockfile: string): Promise<void> {
  assert.equal(run.result.outcome, 'done', run.result.reason);
  const reports = reportsOf(run);
  const tests = reports.filter((r) => (r.kind ?? 'tests') === 'tests');
  assert.equal(tests.at(-1)!.passed, true);
  assert.ok(tests.at(-1)!.counts!.passed >= 2, 'the tests ran');
  const smoke = reports.find((r) => r.kind === 'smoke')!;
  assert.equal(smoke.passed, true, smoke.output);
  assert.equal(smoke.sandbox!.mode, 'bubblewrap');

  // The draft the fast check failed went back to the writer without a review: one review for that file.
  const calls = await callsOf(run.project);
  assert.deepEqual(
    calls.filter((c) => c.endsWith(` ${checked.file}`)),
    [`write_file ${checked.file}`, `revise_file ${checked.file}`, `review_file ${checked.file}`],
  );
  const [code] = codeOf(run, checked.file);
  assert.deepEqual(
    code!.checks!.checks.filter((c) => !c.passed).map((c) => c.checker),
    [checked.checker],
  );
  const figures = await figuresOf(run.project);
  assert.equal(figures.fastChecks.reviewsSaved, 1);
  assert.equal(figures.executability.passed, true);
  assert.equal(figures.completeness.ratio, 1);
  assert.equal(figures.tests.passRate, 1);

  // The lockfile the install wrote is committed; the installed packages are not.
  const tracked = (await git(run.project, 'ls-files')).split('\n');
  assert.ok(tracked.includes(lockfile), `${lockfile} is committed`);
  assert.ok(!tracked.some((f) => f.startsWith('node_modules/') || f.startsWith('.venv/')), 'installed packages stay out of git');
  assert.match(await git(run.project, 'log', '--format=%an %s'), new RegExp(`QA Engineer build: lock the dependencies \\(${lockfile.replace('.', '\\.')}\\)`));
}

describe('generated projects with dependencies, against local registries', function () {
  this.timeout(300_000);
  let npm: NpmRegistry;
  let wheels: PythonIndex;
  const saved = { npm: process.env.SOPWORKS_NPM_REGISTRY, links: process.env.SOPWORKS_PIP_FIND_LINKS };

  before(async function () {
    requireSystem(this, BUBBLEWRAP, PYTHON);
    [npm, wheels] = await Promise.all([startNpmRegistry(), startPythonIndex()]);
    const packs = await tempDir();
    await npm.publishFiles({ 'package.json': JSON.stringify({ name: 'mini-slug', version: '1.0.2', main: 'index.js' }), 'index.js': MINI_SLUG });
    // The real TypeScript compiler, packed from this repository's own node_modules (and its native binary).
    for (const pkg of ['typescript', '@typescript/typescript-linux-x64']) await npm.publish(await packInstalled(path.join(ROOT, 'node_modules', pkg), packs));
    await wheels.addWheel('tinyslug', '1.0.0', TINYSLUG);
    process.env.SOPWORKS_NPM_REGISTRY = npm.url;
    process.env.SOPWORKS_PIP_FIND_LINKS = wheels.url;
  });

  after(async () => {
    for (const [name, value] of [
      ['SOPWORKS_NPM_REGISTRY', saved.npm],
      ['SOPWORKS_PIP_FIND_LINKS', saved.links],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await Promise.all([npm?.stop(), wheels?.stop()]);
    await removeTempDirs();
  });

  let jsRun: CompanyRun;

  it('JavaScript with a runtime dependency: installed from the registry, tested, run; a syntax error caught before review', async () => {
    jsRun = await runScenario(await example('slugify-js.yaml'));
    await assertRanEndToEnd(jsRun, { file: 'src/cli.js', checker: 'node --check' }, 'package-lock.json');
    const lock = JSON.parse(await fs.readFile(path.join(jsRun.project, 'package-lock.json'), 'utf8'));
    assert.equal(lock.packages['node_modules/mini-slug'].version, '1.0.2');
    assert.match(lock.packages['node_modules/mini-slug'].resolved, new RegExp(`^${npm.url}`), 'from the configured registry');
    const install = jsRun.result.messages.find((m) => m.type === 'Dependencies')!.payload as DependencyInstall;
    assert.equal(install.sandbox!.mode, 'bubblewrap');
    assert.ok(!install.sandbox!.gaps.some((g) => /network/.test(g)), 'the install had no network gap: its own namespace');
    assert.match(
      install.output,
      new RegExp(`note: the install could reach only ${npm.url.replace(/\/$/, '').replace(/[.]/g, '\\.')} \\(through the egress proxy\\)`),
    );
    const tests = reportsOf(jsRun).find((r) => (r.kind ?? 'tests') === 'tests')!;
    assert.ok(!tests.sandbox!.gaps.some((g) => /network/.test(g)), 'the tests did not');
  });

  it('a clone of the repository installs the same versions from the committed lockfile', async () => {
    const clone = path.join(await tempDir(), 'clone');
    await exec('git', ['clone', '--quiet', jsRun.project, clone]);
    const { plan, outcome } = await install(clone, { npm: npm.url, pipIndex: null, pipFindLinks: null }, { frozen: true });
    assert.equal(plan.argv[1], 'ci');
    assert.equal(outcome.exitCode, 0, outcome.output);
    const installed = JSON.parse(await fs.readFile(path.join(clone, 'node_modules', 'mini-slug', 'package.json'), 'utf8'));
    assert.equal(installed.version, '1.0.2');
  });

  it('the tests and the program have no network, though the install had it', async () => {
    const probe = `fetch(${JSON.stringify(npm.url)}).then(() => console.log('REACHED'), (error) => { console.log('BLOCKED', error.cause?.code ?? error.message); process.exit(3); })`;
    const outcome = await runSandboxed({
      argv: ['node', '-e', probe],
      projectDir: jsRun.project,
      limits: { ...DEFAULT_SANDBOX_SETTINGS.limits, wallSeconds: 30 },
      setting: 'bubblewrap',
      allowUnsandboxed: false,
    });
    assert.equal(outcome.exitCode, 3, outcome.output);
    assert.match(outcome.output, /BLOCKED/);
    // The registry itself is up: the host reaches it.
    assert.equal((await fetch(`${npm.url}mini-slug`)).status, 200);
  });

  it("runs the project's declared linter as a fast check once its dependencies are installed", async () => {
    // A copy of the finished project, given a lint script (the check copies the work tree, so the run's own project stays as it was).
    const project = await tempDir();
    await fs.cp(jsRun.project, project, { recursive: true, filter: (source) => !source.includes(`${path.sep}.git`) });
    const manifest = JSON.parse(await fs.readFile(path.join(project, 'package.json'), 'utf8'));
    manifest.scripts.lint = 'node lint.cjs';
    await fs.writeFile(path.join(project, 'package.json'), JSON.stringify(manifest));
    await fs.writeFile(
      path.join(project, 'lint.cjs'),
      "const src = require('fs').readFileSync('src/cli.js', 'utf8');\nif (/\\bvar\\b/.test(src)) { console.error('src/cli.js: no var'); process.exit(1); }\n",
    );
    const checks = await runFastChecks({
      file: 'src/cli.js',
      content: "var slug = require('mini-slug');\nconsole.log(slug('A b'));\n",
      projectDir: project,
      sandbox: DEFAULT_SANDBOX_SETTINGS,
    });
    assert.deepEqual(
      checks.map((c) => `${c.checker}: ${c.passed}`),
      ['node --check: true', 'npm run lint: false'],
    );
    assert.match(checks[1]!.problems.join('\n'), /src\/cli\.js: no var/);
  });

  it('TypeScript type-checked and compiled with its declared typescript; a stub caught by the completeness check', async () => {
    const run = await runScenario(await example('sum-ts.yaml'));
    await assertRanEndToEnd(run, { file: 'src/sum.ts', checker: 'completeness' }, 'package-lock.json');
    assert.match(await fs.readFile(path.join(run.project, 'package-lock.json'), 'utf8'), /"node_modules\/typescript": \{\s+"version": "7\./);
    // Now that typescript is installed, a draft with a type error fails `tsc --noEmit`, naming the file and line.
    const checks = await runFastChecks({
      file: 'src/sum.ts',
      content: 'export function sum(numbers: number[]): number {\n  return numbers.join("+");\n}\n',
      projectDir: run.project,
      sandbox: DEFAULT_SANDBOX_SETTINGS,
    });
    const tsc = checks.find((c) => c.checker === 'tsc --noEmit')!;
    assert.equal(tsc.passed, false);
    assert.match(tsc.problems.join('\n'), /^src\/sum\.ts\(2,3\): error TS2322/m);
    assert.equal((await git(run.project, 'status', '--porcelain', '--', 'src')).trim(), '', 'the check left nothing in the project');
  });

  it("Python with a dependency in the project's own .venv, locked in requirements.lock; a syntax error caught by py_compile", async () => {
    const run = await runScenario(await example('slugify-py.yaml'));
    await assertRanEndToEnd(run, { file: 'slugcli.py', checker: 'py_compile' }, 'requirements.lock');
    assert.equal(await fs.readFile(path.join(run.project, 'requirements.lock'), 'utf8'), 'tinyslug==1.0.0\n');
    await fs.access(path.join(run.project, '.venv', 'pyvenv.cfg'));
    assert.match(await fs.readFile(path.join(run.project, '.gitignore'), 'utf8'), /^\.venv\/$/m);
  });

  it('a version the registry does not have: the install fails naming the package, the Engineer fixes the manifest', async () => {
    const scenario = await example('slugify-js.yaml');
    const manifest = scenario.replies.find((r) => r.action === 'write_file' && r.key === 'package.json')!;
    const wrong = { ...manifest, code: manifest.code!.replace('"mini-slug": "^1.0.0"', '"mini-slug": "^9.0.0"') };
    assert.notEqual(wrong.code, manifest.code);
    const replies = scenario.replies.map((r) => (r === manifest ? wrong : r));
    replies.push(
      {
        role: 'qa',
        action: 'write_bug_report',
        json: {
          summary: 'mini-slug@^9.0.0 does not exist',
          failingTests: ['install: mini-slug@^9.0.0'],
          files: [{ path: 'package.json', problem: 'ask for mini-slug ^1.0.0' }],
          ownTests: [],
        },
      },
      { role: 'engineer', action: 'fix_file', key: 'package.json', lang: 'json', code: manifest.code! },
      { role: 'engineer', action: 'review_fix', key: 'package.json', json: { approved: true, issues: [] } },
    );
    const run = await runScenario({ ...scenario, replies });
    assert.equal(run.result.outcome, 'done', run.result.reason);
    const [failed] = reportsOf(run);
    assert.equal(failed!.kind, 'install');
    assert.equal(failed!.passed, false);
    assert.deepEqual(
      failed!.failures.map((f) => f.name),
      ['install: mini-slug@^9.0.0'],
    );
    const bug = run.result.messages.find((m) => m.type === 'BugReport')!;
    assert.equal(bug.to, 'engineer');
    assert.equal(codeOf(run, 'package.json').length, 2, 'the manifest was fixed');
  });

  it('a manifest naming a local folder: refused before the install, naming the line; the Engineer fixes it and it installs', async () => {
    const scenario = await example('slugify-js.yaml');
    const manifest = scenario.replies.find((r) => r.action === 'write_file' && r.key === 'package.json')!;
    const local = { ...manifest, code: manifest.code!.replace('"mini-slug": "^1.0.0"', '"mini-slug": "file:../mini-slug"') };
    assert.notEqual(local.code, manifest.code);
    const replies = scenario.replies.map((r) => (r === manifest ? local : r));
    replies.push(
      {
        role: 'qa',
        action: 'write_bug_report',
        json: {
          summary: 'mini-slug from a local folder',
          failingTests: ['install: package.json'],
          files: [{ path: 'package.json', problem: 'ask for mini-slug ^1.0.0' }],
          ownTests: [],
        },
      },
      { role: 'engineer', action: 'fix_file', key: 'package.json', lang: 'json', code: manifest.code! },
      { role: 'engineer', action: 'review_fix', key: 'package.json', json: { approved: true, issues: [] } },
    );
    const run = await runScenario({ ...scenario, replies });
    assert.equal(run.result.outcome, 'done', run.result.reason);
    const [refused] = reportsOf(run);
    assert.equal(refused!.kind, 'install');
    assert.equal(refused!.passed, false);
    assert.equal(refused!.sandbox, null, 'nothing ran');
    assert.match(refused!.failures[0]!.name, /^install: package\.json:\d+$/);
    assert.match(refused!.failures[0]!.message, /dependencies\.mini-slug: "file:\.\.\/mini-slug" — it installs from a local folder/);
    assert.equal(codeOf(run, 'package.json').length, 2, 'the manifest was fixed');
  });

  it('a registry that is down: the install fails quickly, naming the registry', async () => {
    const project = await tempDir();
    await fs.writeFile(path.join(project, 'package.json'), JSON.stringify({ name: 'p', version: '1.0.0', dependencies: { 'mini-slug': '^1.0.0' } }));
    const down = `http://127.0.0.1:${await freePort()}/`;
    const { plan, outcome } = await install(project, dependencyRegistries(DEFAULT_POLICY, { SOPWORKS_NPM_REGISTRY: down }));
    assert.ok(plan.argv.includes(down));
    assert.notEqual(outcome.exitCode, 0);
    assert.equal(outcome.timedOut, false, 'no hang');
    assert.deepEqual(
      installFailures(outcome.output).map((f) => f.name),
      ['install: the registry'],
    );
  });

  it("installs with the system's python3 too (Debian's: without a venv its default scheme is /usr/local), into the venv's site-packages", async function () {
    requireSystem(this, SYSTEM_PYTHON);
    const project = await tempDir();
    await fs.writeFile(path.join(project, 'requirements.txt'), 'tinyslug>=1.0\n');
    const saved = process.env.PATH;
    process.env.PATH = '/usr/bin:/bin';
    try {
      const { outcome, unmet } = await install(project, { npm: null, pipIndex: null, pipFindLinks: wheels.url });
      assert.equal(outcome.exitCode, 0, outcome.output);
      assert.deepEqual(unmet, []);
    } finally {
      process.env.PATH = saved;
    }
    assert.equal(await fs.realpath(path.join(project, '.venv', 'bin', 'python')), await fs.realpath('/usr/bin/python3'), "the system's python3 made the venv");
    const [lib] = await fs.readdir(path.join(project, '.venv', 'lib'));
    await fs.access(path.join(project, '.venv', 'lib', lib!, 'site-packages', 'tinyslug.py'));
    assert.equal(await fs.readFile(path.join(project, 'requirements.lock'), 'utf8'), 'tinyslug==1.0.0\n');
  });

  it("keeps packages' install scripts from running, and names the packages that have them", async () => {
    await npm.publishFiles({
      'package.json': JSON.stringify({
        name: 'scripted-pkg',
        version: '1.0.0',
        scripts: { postinstall: "node -e \"require('fs').writeFileSync('/project/PWNED', 'x')\"" },
      }),
      'index.js': 'module.exports = 1;\n',
    });
    const project = await tempDir();
    await fs.writeFile(path.join(project, 'package.json'), JSON.stringify({ name: 'p', version: '1.0.0', dependencies: { 'scripted-pkg': '1.0.0' } }));
    const { plan, outcome } = await install(project, dependencyRegistries(DEFAULT_POLICY));
    assert.ok(plan.argv.includes('--ignore-scripts'));
    assert.equal(outcome.exitCode, 0, outcome.output);
    await fs.access(path.join(project, 'node_modules', 'scripted-pkg', 'index.js'));
    await assert.rejects(fs.access(path.join(project, 'PWNED')), 'the postinstall script did not run');
    assert.deepEqual(await packagesWithInstallScripts(project), ['scripted-pkg']);
  });

  it('a policy that does not let QA install: a clear outcome naming the policy, nothing installed', async () => {
    const sops = path.join(await tempDir(), 'sops');
    await fs.cp(SOPS, sops, { recursive: true });
    const policy = path.join(sops, 'policy.yaml');
    await fs.writeFile(
      policy,
      (await fs.readFile(policy, 'utf8'))
        .replace('dependencies:\n  install: true', 'dependencies:\n  install: false')
        .replace('  network: true', '  network: false'),
    );
    const run = await runScenario(await example('slugify-js.yaml'), { sops, roles: ROLES });
    assert.equal(run.result.outcome, 'failed');
    assert.match(run.result.reason, /The project declares dependencies, but .*policy\.yaml does not let qa install them \(dependencies\.install: false/);
    await assert.rejects(fs.access(path.join(run.project, 'node_modules')), 'nothing was installed');
  });
});
