import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { loadCompany, vocabulary } from '../../../../src/company/index.ts';
import { resolveSop } from '../../../../src/engine/sop/build-machine.ts';
import { SopFile } from '../../../../src/engine/steps/index.ts';
import { type ErrorCode, SopworksError } from '../../../../src/ground/errors.ts';
import { ROLES, SOPS } from '../../../helpers/paths.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

interface Copy {
  sops: string;
  roles: string;
}

/** A fresh copy of the shipped sops/ and roles/ to break. */
async function copyDefaults(): Promise<Copy> {
  const dir = await tempDir('sopworks-sops-');
  const copy = { sops: path.join(dir, 'sops'), roles: path.join(dir, 'roles') };
  await fs.cp(SOPS, copy.sops, { recursive: true });
  await fs.cp(ROLES, copy.roles, { recursive: true });
  return copy;
}

/**
 * Replaces `from` (which must occur once) with `to` in a file and returns the 1-based line and column
 * where `to` starts, plus `offset` characters (to point at a word inside the replacement).
 */
async function edit(file: string, from: string, to: string, offset = 0): Promise<{ line: number; col: number }> {
  const text = await fs.readFile(file, 'utf8');
  const at = text.indexOf(from);
  assert.ok(at !== -1 && text.indexOf(from, at + 1) === -1, `"${from}" must occur exactly once in ${file}`);
  await fs.writeFile(file, text.slice(0, at) + to + text.slice(at + from.length));
  const before = text.slice(0, at + offset).split('\n');
  return { line: before.length, col: before.at(-1)!.length + 1 };
}

async function rejectsAt(copy: Copy, code: ErrorCode, where: RegExp, ...phrases: RegExp[]): Promise<void> {
  await assert.rejects(loadCompany(copy.sops, copy.roles), (error: unknown) => {
    assert.ok(SopworksError.isInstance(error), `expected a SopworksError, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    assert.match(error.message, where);
    for (const phrase of phrases) assert.match(error.message, phrase);
    return true;
  });
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const at = (file: string, pos: { line: number; col: number }) => new RegExp(`${escapeRegExp(file)}:${pos.line}:${pos.col}\\b`);

describe('SOP loading', () => {
  after(removeTempDirs);

  it('loads the shipped company: four roles in order, each with its SOP and profile', async () => {
    const company = await loadCompany(SOPS, ROLES);
    assert.deepEqual(
      company.roles.map((r) => r.id),
      ['product-manager', 'architect', 'engineer', 'qa'],
    );
    assert.equal(company.name, 'sopworks default company');
    const qa = company.roles[3]!;
    assert.deepEqual(qa.watches, ['CodeComplete', 'ManualVerdicts']);
    assert.equal(qa.sopFile, path.join(SOPS, 'qa.yaml'));
    assert.equal(qa.sop.id, 'qa');
    assert.equal(qa.profile.email, 'qa@sopworks.local');
    assert.equal(company.roles[0]!.profile.title, 'Product Manager');
  });

  it('fills in parameter defaults when it resolves a SOP', async () => {
    const company = await loadCompany(SOPS, ROLES);
    const judging = company.roles.find((r) => r.id === 'qa')!.sop.states.judging!;
    const always = judging.always as { guard?: unknown }[];
    assert.deepEqual(always[0]!.guard, { type: 'testsPassed', params: { slot: 'testReport' } });
    assert.deepEqual(always[2]!.guard, { type: 'below', params: { counter: 'rounds', max: 3 } });
  });

  describe('refuses a broken copy, naming file:line:column', () => {
    let copy: Copy;
    let qa: string;
    let companyFile: string;
    beforeEach(async () => {
      copy = await copyDefaults();
      qa = path.join(copy.sops, 'qa.yaml');
      companyFile = path.join(copy.sops, 'company.yaml');
    });

    it('malformed YAML', async () => {
      await edit(qa, '  idle:\n    on:', '  idle:\n    on: [unclosed\n');
      await rejectsAt(copy, 'SOP_INVALID', /qa\.yaml:\d+:\d+: error: YAML syntax error/);
    });

    it('an unknown key in a state', async () => {
      const pos = await edit(qa, '  reporting:\n', '  reporting:\n    colour: red\n', '  reporting:\n    '.length);
      await rejectsAt(copy, 'SOP_INVALID', new RegExp(`${escapeRegExp(qa)}:${pos.line}:\\d+`), /states\.reporting: Unrecognized key: "colour"/);
    });

    it('an unknown guard name', async () => {
      const pos = await edit(qa, '{ guard: testsPassed,', '{ guard: testsPased,', '{ guard: '.length);
      await rejectsAt(copy, 'SOP_INVALID', at(qa, pos), /unknown guard "testsPased"/, /known: .*testsPassed/);
    });

    it('a below guard without its max', async () => {
      const pos = await edit(qa, 'params: { counter: rounds, max: 3 }', 'params: { counter: rounds }', 'params: '.length);
      await rejectsAt(copy, 'SOP_INVALID', at(qa, pos), /guard "below": max:/);
    });

    it('an unknown actor in invoke.src', async () => {
      const pos = await edit(qa, 'src: runTests', 'src: runTestz', 'src: '.length);
      await rejectsAt(copy, 'SOP_INVALID', at(qa, pos), /unknown actor "runTestz"/, /known: .*runTests/);
    });

    it('an initial state that does not exist', async () => {
      const pos = await edit(qa, 'initial: idle', 'initial: sleeping', 'initial: '.length);
      await rejectsAt(copy, 'SOP_INVALID', at(qa, pos), /initial state "sleeping" is not one of: idle/);
    });

    it('a hired role with no SOP file', async () => {
      const pos = await edit(companyFile, '  - id: qa\n', '  - id: designer\n    watches: [PRD]\n  - id: qa\n', '  - id: '.length);
      await rejectsAt(copy, 'SOP_INVALID', at(companyFile, pos), /role "designer" has no SOP file/, /designer\.yaml/);
    });

    it('a watched message type that does not exist', async () => {
      const pos = await edit(companyFile, 'watches: [CodeComplete, ManualVerdicts]', 'watches: [CodeCompleted, ManualVerdicts]', 'watches: ['.length);
      await rejectsAt(copy, 'SOP_INVALID', at(companyFile, pos), /unknown message type "CodeCompleted"/, /known: .*CodeComplete/);
    });

    it('a role hired twice', async () => {
      const text = await fs.readFile(companyFile, 'utf8');
      await fs.writeFile(companyFile, text + '  - id: qa\n    watches: [CodeComplete]\n');
      const line = text.split('\n').length;
      await rejectsAt(copy, 'SOP_INVALID', new RegExp(`company\\.yaml:${line}:\\d+`), /role "qa" is hired twice/);
    });

    it('a step whose template is missing, pointing at the step', async () => {
      await fs.rm(path.join(copy.roles, 'qa', 'write_tests.hbs'));
      const text = await fs.readFile(qa, 'utf8');
      const line = text.slice(0, text.indexOf('action: write_tests')).split('\n').length;
      await rejectsAt(copy, 'TEMPLATE_INVALID', /write_tests\.hbs/, /write_tests/);
      await rejectsAt(copy, 'TEMPLATE_INVALID', new RegExp(`qa\\.yaml:${line}:\\d+`));
    });
  });

  describe('resolveSop', () => {
    it('reports every problem at once, by SOP id when there is no source', () => {
      const sop = SopFile.parse({
        id: 'tiny',
        initial: 'start',
        states: {
          start: { invoke: { src: 'nope', onDone: { target: 'end', guard: 'neverHeardOf' } } },
          end: { type: 'final', entry: [{ type: 'count', params: {} }] },
        },
      });
      assert.throws(
        () => resolveSop(sop, null, vocabulary),
        (error: unknown) => {
          assert.ok(SopworksError.isInstance(error));
          assert.equal(error.code, 'SOP_INVALID');
          assert.match(error.message, /^tiny: unknown actor "nope"/m);
          assert.match(error.message, /^tiny: unknown guard "neverHeardOf"/m);
          assert.match(error.message, /^tiny: action "count": counter:/m);
          return true;
        },
      );
    });
  });
});
