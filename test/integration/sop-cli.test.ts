/**
 * `sopworks sop validate | graph | init | vocabulary` as a user runs them: real child processes, real
 * files, exit codes, and never a stack trace.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { sopworks } from '../helpers/in-process.ts';
import { DEMO, ROLES, SOPS } from '../helpers/paths.ts';
import type { CliResult } from '../helpers/run-cli.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const noStackTrace = (result: CliResult) => assert.doesNotMatch(result.stdout + result.stderr, /^\s+at .+:\d+:\d+\)?$/m, 'no stack trace');

async function filesUnder(dir: string): Promise<string[]> {
  return (await fs.readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

describe('sopworks sop', function () {
  this.timeout(120_000);
  let cwd: string;
  beforeEach(async () => {
    cwd = await tempDir('sopworks-sop-cli-');
  });
  after(removeTempDirs);

  describe('validate', () => {
    it('exits 0 on the shipped defaults, saying what it checked', async () => {
      const result = await sopworks(['sop', 'validate'], { cwd });
      assert.equal(result.code, 0, result.stderr + result.stdout);
      assert.match(result.stdout, /^✔ .*sops and .*roles: 4 roles, \d+ files checked, no errors$/m);
      assert.equal(result.stdout.trim().split('\n').length, 1);
    });

    it('exits 1 on errors, printing each at file:line:column; warnings alone do not fail it', async () => {
      await sopworks(['sop', 'init', 'copy'], { cwd });
      const qa = path.join(cwd, 'copy', 'sops', 'qa.yaml');
      await fs.writeFile(
        qa,
        (await fs.readFile(qa, 'utf8')).replace('src: runTests', 'src: runTestz').replace('  finished:\n', '  forgotten:\n    type: final\n  finished:\n'),
      );
      await fs.appendFile(path.join(cwd, 'copy', 'roles', 'qa', 'write_tests.hbs'), '\n{{#if design}}\n');
      const broken = await sopworks(['sop', 'validate', '--sops', 'copy/sops', '--roles', 'copy/roles'], { cwd });
      assert.equal(broken.code, 1);
      noStackTrace(broken);
      const line = (await fs.readFile(qa, 'utf8')).split('\n').findIndex((l) => l.includes('src: runTestz')) + 1;
      assert.match(broken.stdout, new RegExp(`^copy/sops/qa\\.yaml:${line}:12: error: unknown actor "runTestz"; known: ask, publish, check, runTests, `, 'm'));
      assert.match(broken.stdout, /^copy\/sops\/qa\.yaml:\d+:3: warning: state "forgotten" cannot be reached/m);
      assert.match(broken.stdout, /^copy\/roles\/qa\/write_tests\.hbs:\d+:\d+: error: the template does not compile: /m);
      assert.match(broken.stdout, /^✖ copy\/sops and copy\/roles: 2 errors, 1 warning — a run would refuse to start until the errors are fixed$/m);

      await fs.writeFile(qa, (await fs.readFile(qa, 'utf8')).replace('src: runTestz', 'src: runTests'));
      await fs.copyFile(path.join(ROLES, 'qa', 'write_tests.hbs'), path.join(cwd, 'copy', 'roles', 'qa', 'write_tests.hbs'));
      const warned = await sopworks(['sop', 'validate', '--sops', 'copy/sops', '--roles', 'copy/roles'], { cwd });
      assert.equal(warned.code, 0, warned.stdout);
      assert.match(warned.stdout, /no errors, 1 warning$/m);
    });

    it('reports a folder without company.yaml as an error at that file', async () => {
      const result = await sopworks(['sop', 'validate', '--sops', 'nowhere', '--roles', 'nowhere'], { cwd });
      assert.equal(result.code, 1);
      assert.match(
        result.stdout,
        /^nowhere\/company\.yaml:1:1: error: missing: --sops must name a folder holding company\.yaml; `sopworks sop init DIR` writes/m,
      );
    });
  });

  describe('graph', () => {
    it('prints the company flowchart and every state diagram, or writes them with --out', async () => {
      const printed = await sopworks(['sop', 'graph'], { cwd });
      assert.equal(printed.code, 0, printed.stderr);
      assert.match(printed.stdout, /^# sopworks default company$/m);
      assert.match(printed.stdout, /^ {2}qa -->\|BugReport\| engineer$/m);
      assert.equal(printed.stdout.match(/^stateDiagram-v2$/gm)?.length, 4);

      const written = await sopworks(['sop', 'graph', '--out', 'graphs/company.md'], { cwd });
      assert.equal(written.code, 0, written.stderr);
      assert.equal(written.stdout.trim(), 'Wrote graphs/company.md');
      assert.equal(await fs.readFile(path.join(cwd, 'graphs', 'company.md'), 'utf8'), printed.stdout);
    });

    it('draws one role with --role, and names the roles there are when it is not one', async () => {
      const qa = await sopworks(['sop', 'graph', '--role', 'qa'], { cwd });
      assert.equal(qa.code, 0, qa.stderr);
      assert.match(qa.stdout, /^stateDiagram-v2\n {2}\[\*\] --> idle\n/);
      assert.match(qa.stdout, /^ {2}finished --> \[\*\]$/m);

      const unknown = await sopworks(['sop', 'graph', '--role', 'designer'], { cwd });
      assert.equal(unknown.code, 2);
      assert.match(unknown.stderr, /No role "designer" is hired in this company\.\n {2}Use one of: product-manager, architect, engineer, qa/);
    });

    it('refuses to draw SOPs with errors, listing them (exit 2)', async () => {
      await sopworks(['sop', 'init', 'copy'], { cwd });
      const pm = path.join(cwd, 'copy', 'sops', 'product-manager.yaml');
      await fs.writeFile(
        pm,
        (await fs.readFile(pm, 'utf8')).replace(
          'input: { type: PRD, payload: prd, fields: { review: review } }\n      onDone: idle',
          'input: { type: PRD, payload: prd, fields: { review: review } }\n      onDone: idel',
        ),
      );
      const result = await sopworks(['sop', 'graph', '--sops', 'copy/sops', '--roles', 'copy/roles'], { cwd });
      assert.equal(result.code, 2);
      noStackTrace(result);
      assert.match(result.stderr, /copy\/sops\/product-manager\.yaml:\d+:\d+: error: transition target "idel" of state "publishing" is not a state/);
      assert.equal(result.stdout, '');
    });
  });

  describe('init', () => {
    it('writes a copy of the defaults that a run accepts', async () => {
      const init = await sopworks(['sop', 'init', 'mine'], { cwd });
      assert.equal(init.code, 0, init.stderr);
      assert.match(init.stdout, /^Wrote \d+ files: mine\/sops\/ \(company\.yaml and the SOPs\) and mine\/roles\/ \(profiles and prompt templates\)\.$/m);
      assert.match(init.stdout, /^ {2}sopworks run --sops mine\/sops --roles mine\/roles "<spec>"$/m);
      assert.deepEqual(await filesUnder(path.join(cwd, 'mine', 'sops')), await filesUnder(SOPS));
      assert.deepEqual(await filesUnder(path.join(cwd, 'mine', 'roles')), await filesUnder(ROLES));
      assert.equal(
        await fs.readFile(path.join(cwd, 'mine', 'roles', 'qa', 'write_tests.hbs'), 'utf8'),
        await fs.readFile(path.join(ROLES, 'qa', 'write_tests.hbs'), 'utf8'),
      );

      const run = await sopworks(['run', '--llm', `scripted:${DEMO}`, '--sops', 'mine/sops', '--roles', 'mine/roles', '--out', 'out'], { cwd });
      assert.equal(run.code, 0, run.stderr + run.stdout);
      assert.match(run.stdout, /Outcome\s+done — all tests pass/);
    });

    it('refuses to overwrite existing files (exit 2, nothing written) unless --force', async () => {
      const company = path.join(cwd, 'mine', 'sops', 'company.yaml');
      await fs.mkdir(path.dirname(company), { recursive: true });
      await fs.writeFile(company, 'name: my own\n');

      const refused = await sopworks(['sop', 'init', 'mine'], { cwd });
      assert.equal(refused.code, 2);
      assert.match(
        refused.stderr,
        /mine already has 1 of the files sop init writes: sops\/company\.yaml\. Nothing was written\.\n {2}Choose another folder, or add --force/,
      );
      assert.equal(await fs.readFile(company, 'utf8'), 'name: my own\n');
      assert.deepEqual(await filesUnder(path.join(cwd, 'mine')), ['sops/company.yaml']);

      const forced = await sopworks(['sop', 'init', 'mine', '--force'], { cwd });
      assert.equal(forced.code, 0, forced.stderr);
      assert.match(forced.stderr, /^Overwrote 1 file \(--force\): sops\/company\.yaml$/m);
      assert.equal(await fs.readFile(company, 'utf8'), await fs.readFile(path.join(SOPS, 'company.yaml'), 'utf8'));
    });
  });

  it('run validates before hiring anyone: a bad SOP folder creates nothing (exit 2)', async () => {
    await sopworks(['sop', 'init', 'bad'], { cwd });
    await fs.writeFile(path.join(cwd, 'bad', 'roles', 'architect', 'write_design.hbs'), 'Design {{prd}\n');
    const run = await sopworks(['run', '--llm', `scripted:${DEMO}`, '--sops', 'bad/sops', '--roles', 'bad/roles', '--out', 'out'], { cwd });
    assert.equal(run.code, 2);
    noStackTrace(run);
    assert.match(run.stderr, /bad\/roles\/architect\/write_design\.hbs:1:\d+: error: the template does not compile/);
    assert.match(run.stderr, /sopworks sop validate --sops bad\/sops --roles bad\/roles/);
    await assert.rejects(fs.access(path.join(cwd, 'out')), 'no project folder was created');
  });

  it('prints the vocabulary', async () => {
    const result = await sopworks(['sop', 'vocabulary'], { cwd });
    assert.equal(result.code, 0);
    assert.match(result.stdout, /^\| `below` \| `counter`: string<br>`max`: integer ≥ 0 \| A named counter is below a bound/m);
  });
});
