/**
 * The design's check (issue 36): what it refuses goes back to the design step, said in the words its
 * prompt states the rules in — from the policy the check reads — and never with a path of this machine;
 * a policy under which no design can pass is sopworks' conflict, not the model's.
 */
import assert from 'node:assert/strict';
import { checkDesign, designProblems, designRules, README_PURPOSE } from '../../../../src/capabilities/artifacts/design-check.ts';
import { DEFAULT_POLICY, type Policy, policyPort } from '../../../../src/capabilities/policy/index.ts';
import { SopworksError } from '../../../../src/ground/errors.ts';

const roles = { writer: 'engineer', tester: 'qa' };
/** What the shipped policy lets QA run, as a refusal lists it. */
const QA_RUNS = DEFAULT_POLICY.roles.qa!.run.join('; ');
/** The shipped policy, read from a file of this machine: its path must reach no model. */
const MACHINE_PATH = '/home/someone/projects/company/sops/policy.yaml';
const policy = policyPort({ ...DEFAULT_POLICY, source: MACHINE_PATH });
const design = (files: string[], testCommand = ['node', '--test'], more: object = {}) => ({
  files: files.map((path) => ({ path, purpose: `the ${path} file` })),
  testCommand,
  runCommand: ['node', 'src/cli.js', 'FILE'],
  smokeCommand: null,
  ...more,
});

describe("the design's check", () => {
  it('passes a design that lists README.md, a manifest, sample input and an executable: every file has an author', () => {
    assert.deepEqual(designProblems(design(['package.json', 'README.md', 'bin/todo.js', 'examples/sample.csv', 'src/todo.js']), policy, roles), []);
    // A Go CLI is smoke-run as Go runs it, its tests beside its code are QA's (not the design's files).
    const go = design(['go.mod', 'main.go', 'checker/parse.go', 'testdata/SHA256SUMS', 'README.md'], ['go', 'test', '-v', './...'], {
      runCommand: ['go', 'run', '.', 'FILE'],
      smokeCommand: ['go', 'run', '.', 'testdata/SHA256SUMS'],
    });
    assert.deepEqual(designProblems(go, policy, roles), []);
  });

  it("refuses a file its writer may not write, a duplicate, a test command and a smoke run QA may not run — each the design's to fix", () => {
    const problems = designProblems(
      design(['src/a.js', 'test/a.test.js', 'src/a.js', 'docs/design.md'], ['sh', '-c', 'node --test'], { smokeCommand: ['./bin/a.js', 'x'] }),
      policy,
      roles,
    );
    assert.deepEqual(problems, [
      '"src/a.js" is listed twice in files: list each file once',
      `"README.md" is missing from files: every project has one — add it, its purpose: ${README_PURPOSE}`,
      'a file of the design its writer may not write: engineer may not write "test/a.test.js": the policy excepts test/ from what it may write. Leave it out of files, or give it a path engineer may write',
      'a file of the design its writer may not write: engineer may not write "docs/design.md": the policy excepts docs/design.md from what it may write. Leave it out of files, or give it a path engineer may write',
      `the test command is refused: qa may not run "sh -c node --test". Allowed by the policy: commands starting with: ${QA_RUNS}.`,
      `the program's smoke run (smokeCommand) is refused: qa may not run "./bin/a.js x". Allowed by the policy: commands starting with: ${QA_RUNS}.`,
    ]);
    // A run command with a placeholder is not run, so not checked; one without is the smoke run.
    assert.deepEqual(designProblems(design(['a.py', 'README.md'], ['pytest'], { runCommand: ['python3', 'a.py', '<path>'] }), policy, roles), []);
    assert.match(
      designProblems(design(['a.py', 'README.md'], ['pytest'], { runCommand: ['npx', 'a'] }), policy, roles)[0]!,
      /smoke run \(runCommand\) is refused: "npx a" installs/,
    );
    assert.match(
      designProblems(design(['a.js', 'README.md'], ['npm', 'install']), policy, roles)[0]!,
      /^the test command is refused: "npm install" installs dependencies/,
    );
  });

  it('sends back a design without README.md (trial dupes1: none was listed, and a README was rendered without a model), saying what it holds', () => {
    assert.deepEqual(designProblems(design(['package.json', 'src/cli.js']), policy, roles), [
      `"README.md" is missing from files: every project has one — add it, its purpose: ${README_PURPOSE}`,
    ]);
    assert.ok(designRules(policy, roles).some((rule) => rule.startsWith('`files` lists `README.md` (install, usage with real examples')));
    // A policy that does not let the writer write it leaves no design able to pass: sopworks' conflict.
    const noReadme: Policy = {
      ...DEFAULT_POLICY,
      source: MACHINE_PATH,
      roles: { ...DEFAULT_POLICY.roles, engineer: { ...DEFAULT_POLICY.roles.engineer!, except: [...DEFAULT_POLICY.roles.engineer!.except, 'README.md'] } },
    };
    assert.throws(
      () => checkDesign(design(['src/a.js', 'README.md']), policyPort(noReadme), roles),
      (error: unknown) => SopworksError.isInstance(error) && error.code === 'CHECKS_CONFLICT' && /every design lists README\.md/.test(error.message),
    );
  });

  it('states, in its rules, every path and command list it checks against — from the same policy', () => {
    const rules = designRules(policy, roles).join('\n');
    const own = DEFAULT_POLICY.roles;
    for (const glob of [...own.engineer!.except, ...DEFAULT_POLICY.protected]) assert.ok(rules.includes(glob), `the rules name ${glob}`);
    for (const command of own.qa!.run) assert.ok(rules.includes(command), `the rules name ${command}`);
    assert.match(rules, /Each path appears once/);
    assert.match(rules, /smokeCommand/);
  });

  it('names no path of this machine in its rules, its problems or its errors', () => {
    const text = [...designRules(policy, roles), ...designProblems(design(['test/x.test.js'], ['bash', 'x']), policy, roles)].join('\n');
    assert.ok(!text.includes(MACHINE_PATH) && !text.includes('/home/'), text);
    assert.throws(
      () => checkDesign(design(['test/x.test.js']), policy, roles),
      (error: unknown) =>
        SopworksError.isInstance(error) && error.code === 'DESIGN_INVALID' && !error.message.includes(MACHINE_PATH) && error.hint === undefined,
    );
  });

  it("is sopworks' conflict, not the model's, when the policy leaves no design able to pass", () => {
    const runsNothing: Policy = { ...DEFAULT_POLICY, source: MACHINE_PATH, roles: { ...DEFAULT_POLICY.roles, qa: { ...DEFAULT_POLICY.roles.qa!, run: [] } } };
    assert.throws(
      () => checkDesign(design(['src/a.js']), policyPort(runsNothing), roles),
      (error: unknown) => {
        assert.ok(SopworksError.isInstance(error));
        assert.equal(error.code, 'CHECKS_CONFLICT');
        assert.match(error.message, /No design can pass the design's check: a design's test command is qa's to run, and the policy lets qa run nothing/);
        assert.match(error.hint ?? '', /a fault of the SOP and its policy .*, not of the model/);
        return true;
      },
    );
  });
});
