/**
 * `validateCompany`: every problem in the SOP and template files, each at file:line:column with what
 * to do — all of them at once, errors and warnings — on copies of the shipped defaults.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { loadCompany, validateCompany } from '../../../src/company/load-company.ts';
import { type Diagnostic, formatDiagnostic, type Severity } from '../../../src/engine/sop/index.ts';
import { SopworksError } from '../../../src/ground/errors.ts';
import { ROLES, SOPS } from '../../helpers/paths.ts';
import { removeTempDirs, tempDir } from '../../helpers/temp-dir.ts';

interface Copy {
  sops: string;
  roles: string;
}

async function copyDefaults(): Promise<Copy> {
  const dir = await tempDir('sopworks-validate-');
  const copy = { sops: path.join(dir, 'sops'), roles: path.join(dir, 'roles') };
  await fs.cp(SOPS, copy.sops, { recursive: true });
  await fs.cp(ROLES, copy.roles, { recursive: true });
  return copy;
}

/**
 * Replaces `from` (which must occur once) with `to` and returns "file:line:column" of the character
 * `offset` characters into the replacement.
 */
async function edit(file: string, from: string, to: string, offset = 0): Promise<string> {
  const text = await fs.readFile(file, 'utf8');
  const at = text.indexOf(from);
  assert.ok(at !== -1 && text.indexOf(from, at + 1) === -1, `"${from}" must occur exactly once in ${file}`);
  const edited = text.slice(0, at) + to + text.slice(at + from.length);
  await fs.writeFile(file, edited);
  const before = edited.slice(0, at + offset).split('\n');
  return `${file}:${before.length}:${before.at(-1)!.length + 1}`;
}

/** "file:line:column" of the first occurrence of `text` (plus `offset`) in a file. */
async function positionOf(file: string, text: string, offset = 0): Promise<string> {
  const content = await fs.readFile(file, 'utf8');
  const at = content.indexOf(text);
  assert.ok(at !== -1, `"${text}" is not in ${file}`);
  const before = content.slice(0, at + offset).split('\n');
  return `${file}:${before.length}:${before.at(-1)!.length + 1}`;
}

async function diagnosticsOf(copy: Copy): Promise<Diagnostic[]> {
  return (await validateCompany(copy.sops, copy.roles)).diagnostics;
}

/** Asserts that exactly one diagnostic of that severity is at `where`, with a matching message. */
function expectAt(diagnostics: Diagnostic[], severity: Severity, where: string, ...phrases: RegExp[]): Diagnostic {
  const here = diagnostics.filter((d) => d.where === where && d.severity === severity);
  assert.equal(here.length, 1, `expected one ${severity} at ${where}, got:\n${diagnostics.map(formatDiagnostic).join('\n')}`);
  const found = here[0]!;
  for (const phrase of phrases) assert.match(found.message, phrase);
  return found;
}

describe('sop validation', () => {
  let copy: Copy;
  let file: (...parts: string[]) => string;
  beforeEach(async () => {
    copy = await copyDefaults();
    file = (...parts) => path.join(parts[0] === 'roles' ? copy.roles : copy.sops, ...parts.slice(parts[0] === 'roles' ? 1 : 0));
  });
  after(removeTempDirs);

  it('finds nothing wrong with the shipped defaults: no error, no warning', async () => {
    const validation = await validateCompany(SOPS, ROLES);
    assert.deepEqual(validation.diagnostics.map(formatDiagnostic), []);
    assert.deepEqual(
      validation.company?.roles.map((r) => r.id),
      ['product-manager', 'architect', 'engineer', 'qa'],
    );
  });

  it("gives the change company's roles the profiles of a change: no PRD, the repository's own runner", async () => {
    const company = await loadCompany(path.join(SOPS, 'change'), ROLES);
    const profiles = new Map(company.roles.map((r) => [r.id, r.profile]));
    assert.deepEqual([...profiles.keys()], ['product-manager', 'architect', 'engineer', 'qa']);
    for (const [id, profile] of profiles) {
      const said = [profile.goal, ...profile.constraints].join('\n');
      assert.doesNotMatch(said, /\bPRD\b|product requirements/i, `${id} speaks of a PRD in a change run`);
      assert.match(said, /existing repository|the repository's|the base|the change/i, `${id} says it changes an existing repository`);
    }
    assert.match(profiles.get('product-manager')!.goal, /change request/);
    assert.match((await loadCompany(SOPS, ROLES)).roles[0]!.profile.goal, /product requirements document/, 'a new project keeps its PRD');
  });

  describe('bad input, each at file:line:column', () => {
    it('malformed YAML', async () => {
      const where = await edit(file('qa.yaml'), '  idle:\n    on:\n', '  idle:\n    on: [unclosed\n', '  idle:\n    on: ['.length);
      expectAt(await diagnosticsOf(copy), 'error', where, /^YAML syntax error: /);
    });

    it('an unknown key', async () => {
      const where = await edit(file('qa.yaml'), '  reporting:\n', '  reporting:\n    colour: red\n', '  reporting:\n    '.length);
      expectAt(await diagnosticsOf(copy), 'error', where, /^states\.reporting: Unrecognized key: "colour"; remove it or correct its spelling/);
    });

    it('a wrong type in company.yaml and in a step parameter', async () => {
      const watches = await edit(file('company.yaml'), 'watches: [CodeComplete, ManualVerdicts]', 'watches: CodeComplete, ManualVerdicts', 'watches: '.length);
      expectAt(await diagnosticsOf(copy), 'error', watches, /^roles\.3\.watches: Invalid input: expected array, received string/);

      await edit(file('company.yaml'), 'watches: CodeComplete, ManualVerdicts', 'watches: [CodeComplete, ManualVerdicts]');
      const max = await edit(file('qa.yaml'), '{ counter: rounds, max: 3 }', '{ counter: rounds, max: three }', '{ counter: rounds, max: '.length);
      expectAt(await diagnosticsOf(copy), 'error', max, /^guard "below": max: Invalid input: expected number, received string/);
    });

    it('a duplicate state id', async () => {
      const where = await edit(
        file('qa.yaml'),
        '  finished:\n    type: final\n',
        '  finished:\n    type: final\n  judging:\n    type: final\n',
        '  finished:\n    type: final\n  '.length,
      );
      expectAt(await diagnosticsOf(copy), 'error', where, /^YAML syntax error: duplicate key "judging": .*may appear only once/);
    });

    it('a template with a syntax error', async () => {
      const where = await edit(file('roles', 'product-manager', 'write_prd.hbs'), '> {{spec}}', '> {{spec}', '> {{spec'.length);
      const found = expectAt(
        await diagnosticsOf(copy),
        'error',
        where,
        /^the template does not compile: Parse error on line 3: Expecting .*; fix its Handlebars syntax/,
      );
      assert.equal(found.code, 'TEMPLATE_INVALID');
    });

    it('a block left open in a template', async () => {
      const where = await edit(file('roles', 'qa', 'write_tests.hbs'), '## Design\n', '## Design\n{{#each design.files}}{{/if}}\n', '## Design\n{{#'.length);
      expectAt(await diagnosticsOf(copy), 'error', where, /^the template does not compile: each doesn't match if; fix its Handlebars syntax$/);
    });

    it('a role id that is reserved', async () => {
      const where = await edit(file('company.yaml'), '  - id: qa\n', '  - id: client\n    watches: [PRD]\n  - id: qa\n', '  - id: '.length);
      const found = (await diagnosticsOf(copy)).filter((d) => d.where === where).map((d) => d.message);
      assert.ok(
        found.some((m) => /^the role id "client" is reserved: the client is who posts the Requirement; choose another id$/.test(m)),
        found.join('\n'),
      );
    });

    it('a role in company.yaml with no SOP file', async () => {
      const where = await edit(file('company.yaml'), '  - id: qa\n', '  - id: designer\n    watches: [PRD]\n  - id: qa\n', '  - id: '.length);
      const diagnostics = await diagnosticsOf(copy);
      assert.match(
        diagnostics.find((d) => d.where === where && /no SOP file/.test(d.message))!.message,
        /^role "designer" has no SOP file .*designer\.yaml; write it/,
      );
    });

    it('a role whose profile file is missing, or is no YAML file name', async () => {
      const where = await edit(file('company.yaml'), '  - id: qa\n', '  - id: qa\n    profile: missing.yaml\n', '  - id: qa\n    profile: '.length);
      expectAt(await diagnosticsOf(copy), 'error', where, /^role "qa" has no profile .*roles\/qa\/missing\.yaml; write it with name, title, goal/);
      await edit(file('company.yaml'), 'profile: missing.yaml', 'profile: ../architect/role.yaml');
      const names = (await diagnosticsOf(copy)).map((d) => d.message);
      assert.ok(
        names.some((m) => /a YAML file name in the role's folder/.test(m)),
        names.join('\n'),
      );
    });

    it("a role setting none of the role's SOPs reads (a typo), and one that is not a yes/no, number or word", async () => {
      const where = await edit(
        file('company.yaml'),
        '  - id: qa\n',
        '  - id: qa\n    settings:\n      selfReveiw: false\n',
        '  - id: qa\n    settings:\n      selfReveiw: '.length,
      );
      expectAt(
        await diagnosticsOf(copy),
        'error',
        where,
        /^no SOP of this role reads the setting "selfReveiw", so it would change nothing; its SOPs read no setting/,
      );
      await edit(file('company.yaml'), '  - id: engineer\n', '  - id: engineer\n    settings:\n      selfReveiw: false\n');
      assert.ok(
        (await diagnosticsOf(copy)).some((d) => /reads the setting "selfReveiw".*its SOPs read "selfReview"/.test(d.message)),
        'the engineer is told the name its SOPs read',
      );
      const value = await edit(
        file('company.yaml'),
        'selfReveiw: false\n    watches: [TaskGraph',
        'selfReview: [false]\n    watches: [TaskGraph',
        'selfReview: '.length,
      );
      expectAt(await diagnosticsOf(copy), 'error', value, /settings\.selfReview: a setting is true or false, a number or a word, e\.g\. selfReview: false$/);
      await edit(file('company.yaml'), 'selfReview: [false]', 'selfReview: false');
      assert.ok(!(await diagnosticsOf(copy)).some((d) => d.severity === 'error' && /selfReview"/.test(d.message)), 'the right name is read');
    });

    it('a SOP that references a missing template', async () => {
      await fs.rm(file('roles', 'qa', 'write_tests.hbs'));
      const where = await positionOf(file('qa.yaml'), 'action: write_tests', 'action: '.length);
      const found = expectAt(await diagnosticsOf(copy), 'error', where, /^step "write_tests" of qa has no template .*write_tests\.hbs; write it/);
      assert.equal(found.code, 'TEMPLATE_INVALID');
    });

    it('a template using a variable its step does not give it', async () => {
      const where = await edit(
        file('roles', 'architect', 'write_tasks.hbs'),
        '{{markdown "Design" design}}',
        '{{markdown "Design" design}} for {{spec}}',
        '{{markdown "Design" design}} for {{'.length,
      );
      const step = await positionOf(file('architect.yaml'), 'src: ask\n      input: { action: write_tasks');
      expectAt(
        await diagnosticsOf(copy),
        'error',
        where,
        new RegExp(
          `^"spec" is not given to this template: step "planning" \\(${step.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\) gives role, key, revisions, prd, design; add it to the step's with list`,
        ),
      );
    });

    it('a variable a shared partial needs but its include does not pass', async () => {
      const include = await edit(
        file('roles', 'engineer', 'write_file.hbs'),
        '{{> dependencies}}',
        '{{> dependencies}}\n{{> code-files}}',
        '{{> dependencies}}\n'.length,
      );
      const inPartial = await positionOf(file('roles', '_shared', 'code-files.hbs'), 'files}}', 0);
      expectAt(
        await diagnosticsOf(copy),
        'error',
        inPartial,
        new RegExp(`^"files" is not given to partial "code-files": its include at ${include.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `),
        /pass it in the include/,
      );
    });

    it('a helper that does not exist and a markdown type that does not', async () => {
      const helper = await edit(file('roles', 'architect', 'write_design.hbs'), '{{markdown "PRD" prd}}', '{{markdwn "PRD" prd}} {{markdown "Prd" prd}}', 2);
      const diagnostics = await diagnosticsOf(copy);
      expectAt(diagnostics, 'error', helper, /^unknown helper "markdwn"; use one of .*markdown/);
      expectAt(
        diagnostics,
        'error',
        helper.replace(/:(\d+)$/, (_, c) => `:${Number(c) + '{{markdwn "PRD" prd}} {{markdown '.length - 2}`),
        /^markdown needs the artifact's type .*"PRD"/,
      );
    });
  });

  describe('the machine', () => {
    it('warns about a state no transition reaches', async () => {
      const where = await edit(file('qa.yaml'), '  finished:\n', '  forgotten:\n    type: final\n  finished:\n', 2);
      expectAt(await diagnosticsOf(copy), 'warning', where, /^state "forgotten" cannot be reached from the initial state "idle"/);
    });

    it('names a transition target that is not a state', async () => {
      const where = await edit(file('qa.yaml'), 'onDone: covering', 'onDone: jugding', 'onDone: '.length);
      expectAt(await diagnosticsOf(copy), 'error', where, /^transition target "jugding" of state "reporting" is not a state; use a sibling \(.*covering/);
    });

    it('refuses a state with no way out', async () => {
      const architect = file('architect.yaml');
      await edit(
        architect,
        '      input: { outcome: failed, reason: the task graph is still invalid after 2 corrections, detail: error }\n      onDone: idle\n',
        '      input: { outcome: failed, reason: the task graph is still invalid after 2 corrections, detail: error }\n',
      );
      const where = await positionOf(architect, 'givingUp:\n    invoke');
      expectAt(await diagnosticsOf(copy), 'error', where, /^state "givingUp" has no way out: .*add a transition, or mark it type: final/);
    });

    it('refuses a role that can never rest once it starts', async () => {
      const pm = file('product-manager.yaml');
      await edit(
        pm,
        '      input: { type: PRD, payload: prd, fields: { review: review } }\n      onDone: idle',
        '      input: { type: PRD, payload: prd, fields: { review: review } }\n      onDone: writing',
      );
      await edit(
        pm,
        '      input: { outcome: failed, reason: the PRD was rejected 3 times, detail: review }\n      onDone: idle',
        '      input: { outcome: failed, reason: the PRD was rejected 3 times, detail: review }\n      onDone: writing',
      );
      // Once past `idle`, nothing leads back to it: from the questions on, the role never rests.
      const where = await positionOf(pm, 'clarifying:\n    invoke');
      expectAt(
        await diagnosticsOf(copy),
        'error',
        where,
        /^from states "clarifying", "writing", "toReview", "reviewing", "deciding", "approving", "rejected", "givingUp", "revising", "publishing" the role can never rest: /,
      );
    });

    it('refuses a machine with no final state and no state that waits for a message', async () => {
      const pm = file('product-manager.yaml');
      await edit(
        pm,
        '    on:\n      Requirement: { target: clarifying, actions: [receive] }\n      ManualChecks: { target: judgingManual, actions: [receive] }',
        '    always: clarifying',
      );
      await edit(
        pm,
        '      input: { type: PRD, payload: prd, fields: { review: review } }\n      onDone: idle',
        '      input: { type: PRD, payload: prd, fields: { review: review } }\n      onDone: writing',
      );
      const where = await positionOf(pm, 'initial: idle');
      expectAt(
        await diagnosticsOf(copy),
        'error',
        where,
        /^the machine has no final state and no state that waits for a board message, so the role can never rest/,
      );
    });
  });

  describe('who sends what to whom', () => {
    it('refuses a role that no one ever sends work to', async () => {
      const where = await edit(file('company.yaml'), 'watches: [CodeComplete, ManualVerdicts]', 'watches: [Document]', 'watches: '.length);
      expectAt(await diagnosticsOf(copy), 'error', where, /^role "qa" is never given work: no role sends it Document/);
    });

    it('warns when a watched type has no sender and a published one has no reader (Outcome is read by the company)', async () => {
      await edit(file('company.yaml'), '  - id: qa\n    watches: [CodeComplete, ManualVerdicts]\n', '');
      const diagnostics = await diagnosticsOf(copy);
      const bugReport = await positionOf(file('company.yaml'), 'BugReport]');
      expectAt(diagnostics, 'warning', bugReport, /^role "engineer" watches BugReport, but no role sends it one, so its on: BugReport transitions never fire/);
      const handingOver = await positionOf(file('engineer.yaml'), 'src: publish\n      input: { type: CodeComplete');
      expectAt(diagnostics, 'warning', handingOver, /^no role watches CodeComplete and it commits no files, so publishing it changes nothing/);
      expectAt(diagnostics, 'warning', await positionOf(file('company.yaml'), '- id: product-manager'), /no role has a conclude step with outcome: done/);
      assert.equal(diagnostics.filter((d) => d.severity === 'error').length, 0);
      assert.equal(
        diagnostics.some((d) => /Outcome/.test(d.message)),
        false,
        "the architect's Outcome goes to the company",
      );
    });

    it('refuses a message addressed to a role that is not hired, and an unknown type', async () => {
      const to = await edit(file('qa.yaml'), 'payload: triage, to: engineer', 'payload: triage, to: enginer', 'payload: triage, to: '.length);
      const type = await edit(
        file('architect.yaml'),
        'input: { type: TaskGraph, payload: tasks }',
        'input: { type: Taskgraph, payload: tasks }',
        'input: { type: '.length,
      );
      const event = await edit(file('engineer.yaml'), '      BugReport: { target: nextFix', '      Bugreport: { target: nextFix', 6);
      const diagnostics = await diagnosticsOf(copy);
      expectAt(diagnostics, 'error', to, /^"enginer" is not a hired role, so this BugReport would reach no one; use all or one of .*engineer/);
      expectAt(diagnostics, 'error', type, /^unknown message type "Taskgraph"; use one of .*TaskGraph/);
      expectAt(diagnostics, 'error', event, /^"Bugreport" is not a message type: a SOP's on: events are board messages/);
    });

    it('refuses a watched type the SOP never takes', async () => {
      const where = await edit(file('company.yaml'), 'watches: [PRD]', 'watches: [PRD, BugReport]', 'watches: [PRD, '.length);
      expectAt(
        await diagnosticsOf(copy),
        'error',
        where,
        /^role "architect" watches BugReport, but no state of its SOP takes it \(on: BugReport\): .*the run would stall/,
      );
    });
  });

  describe('names a step uses', () => {
    it('refuses a view or slot that does not exist', async () => {
      const where = await edit(file('qa.yaml'), 'with: [prd, design, files] }', 'with: [prd, desing, files] }', 'with: [prd, '.length);
      expectAt(await diagnosticsOf(copy), 'error', where, /^"desing" is neither a view nor a slot this SOP keeps; use a view \(.*design.*\)/);
    });

    it('accepts a fixed path as the key of a step that writes one file, and refuses an unsafe one', async () => {
      const step = 'input: { action: write_design, output: Design, with: [prd] }';
      await edit(file('architect.yaml'), step, 'input: { action: write_design, output: code, key: docs/NOTES.md, with: [prd] }');
      assert.deepEqual((await diagnosticsOf(copy)).filter((d) => d.severity === 'error').map(formatDiagnostic), []);
      const fixed = await edit(file('architect.yaml'), 'key: docs/NOTES.md', 'key: ../outside.md', 'key: '.length);
      expectAt(
        await diagnosticsOf(copy),
        'error',
        fixed,
        /^actor "ask": key: use current, or a path inside the project: unsafe path "\.\.\/outside\.md": the path leaves the project/,
      );
    });
  });

  it('collects every problem of every file at once', async () => {
    await edit(file('qa.yaml'), 'src: runTests', 'src: runTestz');
    await edit(file('architect.yaml'), 'onDone: planning', 'onDone: planninq');
    await edit(file('roles', 'engineer', 'write_file.hbs'), '## Task', '## Task {{nope}}');
    const diagnostics = await diagnosticsOf(copy);
    assert.deepEqual(
      diagnostics
        .filter((d) => d.severity === 'error')
        .map((d) => path.basename(d.where.replace(/:\d+:\d+$/, '')))
        .sort(),
      ['architect.yaml', 'qa.yaml', 'write_file.hbs'],
    );
  });

  describe('loadCompany, as `sopworks run` uses it', () => {
    it('refuses to hire anyone when any file has an error, listing every error', async () => {
      await edit(file('qa.yaml'), 'src: runTests', 'src: runTestz');
      await edit(file('roles', 'engineer', 'write_file.hbs'), '## Task', '## Task {{nope}}');
      await assert.rejects(loadCompany(copy.sops, copy.roles), (error: unknown) => {
        assert.ok(SopworksError.isInstance(error));
        assert.equal(error.code, 'SOP_INVALID');
        const lines = error.message.split('\n');
        assert.equal(lines.length, 2);
        assert.match(lines[0]!, /qa\.yaml:\d+:\d+: error: unknown actor "runTestz"/);
        assert.match(lines[1]!, /write_file\.hbs:\d+:\d+: error: "nope" is not given to this template/);
        assert.match(error.hint!, /sopworks sop validate --sops .* --roles /);
        return true;
      });
    });

    it('hands over the warnings of a company that can run', async () => {
      await edit(file('qa.yaml'), '  finished:\n', '  forgotten:\n    type: final\n  finished:\n');
      const company = await loadCompany(copy.sops, copy.roles);
      assert.deepEqual(
        company.warnings.map((w) => w.message.split(':')[0]),
        ['state "forgotten" cannot be reached from the initial state "idle"'],
      );
    });
  });
});
