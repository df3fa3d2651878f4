/**
 * Schemas hold what prompts ask for (issue 36, Must 6): an assumption with every open question, a review
 * whose notes cannot be dropped (it approves only with nothing to change), and each file's dependencies
 * asked for where the schema has a field for them — the task graph, not the design.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { renderPrd } from '../../../src/capabilities/artifacts/index.ts';
import { parseJsonReply, strictJsonSchema } from '../../../src/capabilities/model/index.ts';
import { askOutputs } from '../../../src/company/index.ts';
import { PostedPRD, REVIEW_RULE, TRIAGE_RULE, UNRECORDED_ASSUMPTION } from '../../../src/documents/schemas.ts';
import { ROLES } from '../../helpers/paths.ts';

const prd = (openQuestions: unknown[]) => ({
  projectName: 'todo',
  summary: 'A todo list on the command line.',
  goals: ['Keep a list'],
  userStories: [{ asA: 'user', iWant: 'to add items', soThat: 'I remember them' }],
  requirementPool: [{ id: 'R1', description: 'Add an item', priority: 'P0' }],
  acceptanceCriteria: ['`todo add x` adds x'],
  openQuestions,
});
type Node = { properties?: Record<string, Node>; items?: Node; required?: string[]; description?: string };

describe('schemas hold what prompts ask for', () => {
  it('asks for an assumption with every open question, and refuses an open question without one', async () => {
    const schema = strictJsonSchema(askOutputs.PRD!) as Node;
    assert.deepEqual(schema.properties!.openQuestions!.items!.required, ['question', 'assumption']);
    assert.match(await fs.readFile(path.join(ROLES, 'product-manager', 'write_prd.hbs'), 'utf8'), /open questions — each with the assumption you made for it/);
    const refused = parseJsonReply(JSON.stringify(prd(['Read standard input?'])), askOutputs.PRD!);
    assert.ok(!refused.ok && /openQuestions\.0: Invalid input: expected object, received string/.test(refused.error), JSON.stringify(refused));
    const taken = parseJsonReply(JSON.stringify(prd([{ question: 'Read standard input?', assumption: 'No, files only.' }])), askOutputs.PRD!);
    assert.ok(taken.ok);
    assert.match(renderPrd(taken.value as never), /## Open questions\n\n- Read standard input\? — assumed meanwhile: No, files only\./);
  });

  it('still reads a PRD an older run posted, its open questions plain strings', () => {
    const posted = PostedPRD.parse(prd(['Read standard input?']));
    assert.deepEqual(posted.openQuestions, [{ question: 'Read standard input?', assumption: UNRECORDED_ASSUMPTION }]);
    // A board restored from disk keeps the payload as it was written: the page still renders it.
    assert.match(renderPrd(prd(['Read standard input?']) as never), /## Open questions\n\n- Read standard input\?\n?$/);
  });

  it('takes a review that approves only with nothing to change, the rule said in the schema the model is shown', () => {
    const schema = strictJsonSchema(askOutputs.Review!) as Node;
    assert.equal(schema.description, REVIEW_RULE);
    for (const [review, ok] of [
      [{ approved: true, issues: [] }, true],
      [{ approved: false, issues: ['`run` ignores --top'] }, true],
      [{ approved: true, issues: ['consider a shorter name'] }, false],
      [{ approved: false, issues: [] }, false],
    ] as const) {
      const parsed = parseJsonReply(JSON.stringify(review), askOutputs.Review!);
      assert.equal(parsed.ok, ok, JSON.stringify(review));
      if (!parsed.ok) assert.ok(parsed.error.includes(REVIEW_RULE), parsed.error);
    }
  });

  it("takes a change's triage naming source files, its own tests, or both, and refuses one that names neither", () => {
    const schema = strictJsonSchema(askOutputs.TestTriage!) as Node;
    assert.equal(schema.description, TRIAGE_RULE);
    const file = { path: 'src/greet.js', problem: 'en lost its comma' };
    const test = { path: 'test/greet-lang.test.js', problem: 'AC-1 expects no space before "!"' };
    for (const [files, ownTests, ok] of [
      [[file], [], true],
      [[], [test], true],
      [[file], [test], true],
      [[], [], false],
    ] as const) {
      const parsed = parseJsonReply(JSON.stringify({ summary: 'AC-1 fails', failingTests: ['AC-1'], files, ownTests }), askOutputs.TestTriage!);
      assert.equal(parsed.ok, ok, JSON.stringify({ files, ownTests }));
      if (!parsed.ok) assert.ok(parsed.error.includes(TRIAGE_RULE), parsed.error);
    }
  });

  it("asks for each file's dependencies where the schema holds them: the task graph, not the design", async () => {
    const design = strictJsonSchema(askOutputs.Design!) as Node;
    assert.deepEqual(Object.keys(design.properties!.files!.items!.properties!), ['path', 'purpose', 'executable'], 'no dependencies field in a design file');
    const tasks = strictJsonSchema(askOutputs.TaskGraph!) as Node;
    assert.ok(tasks.properties!.tasks!.items!.required!.includes('dependsOn'));
    // The Architect's profile is the system prompt of its design steps too, in a new project and in a change.
    for (const file of ['role.yaml', 'change.yaml']) {
      const profile = await fs.readFile(path.join(ROLES, 'architect', file), 'utf8');
      assert.doesNotMatch(profile, /dependencies must be (listed|in)/, file);
      assert.match(profile, /dependencies \(the files it imports from, or that it documents or declares\) are the task graph's to list/, file);
    }
    assert.match(
      await fs.readFile(path.join(ROLES, 'architect', 'write_tasks.hbs'), 'utf8'),
      /the files it depends on \(those it imports from; a file that documents or declares others — README.md, a .d.ts — depends on the files it describes/,
    );
  });
});
