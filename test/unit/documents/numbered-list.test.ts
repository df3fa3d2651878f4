/**
 * Lists sopworks numbers itself (AC-n, KW-n): the schema the model is shown says so, and a reply that
 * numbered them anyway is read without the label sopworks adds — no "AC-1: AC-1: …", and no re-ask.
 */
import assert from 'node:assert/strict';
import { renderPrd } from '../../../src/capabilities/artifacts/index.ts';
import { renderChangeRequest } from '../../../src/capabilities/change/index.ts';
import { parseJsonReply, strictJsonSchema } from '../../../src/capabilities/model/index.ts';
import { ChangeRequest, PRD } from '../../../src/documents/index.ts';
import { withoutLabel } from '../../../src/documents/numbered-list.ts';

const prdReply = (criteria: string[]) =>
  JSON.stringify({
    projectName: 'csv2jsonl',
    summary: 'CSV to JSON Lines.',
    goals: ['Convert'],
    userStories: [{ asA: 'user', iWant: 'lines', soThat: 'I can stream' }],
    requirementPool: [{ id: 'R1', description: 'Read CSV', priority: 'P0' }],
    acceptanceCriteria: criteria,
    openQuestions: [],
  });

describe('numbered lists', () => {
  it('takes off the label sopworks adds at that place, in the forms models write it', () => {
    for (const written of [
      'AC-3: Prints one line',
      'AC-3 - Prints one line',
      'ac3: Prints one line',
      '[AC-3] Prints one line',
      '**AC-3**: Prints one line',
      '**AC-3:** Prints one line',
      '(AC-3) Prints one line',
      'AC-03. Prints one line',
      'AC-3 — Prints one line',
    ]) {
      assert.equal(withoutLabel(written, 'AC-3'), 'Prints one line', written);
    }
  });

  it('keeps a label that is not the one sopworks adds there, and text that only mentions one', () => {
    for (const kept of [
      'AC-30: Prints one line',
      'AC-2: Prints one line',
      'KW-3: Prints one line',
      'AC-3 is met when it prints one line',
      'AC-3:',
      'Prints one line like AC-3: does',
    ]) {
      assert.equal(withoutLabel(kept, 'AC-3'), kept, kept);
    }
  });

  it('reads a PRD whose criteria carry their own labels as their text alone, and renders each label once', () => {
    const parsed = parseJsonReply(prdReply(['AC-1: Reads stdin', 'AC-2: Writes stdout', 'AC-7: Exits 2 on bad input']), PRD);
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
    assert.deepEqual(parsed.value.acceptanceCriteria, ['Reads stdin', 'Writes stdout', 'AC-7: Exits 2 on bad input']);
    const markdown = renderPrd(parsed.value);
    assert.match(markdown, /AC-1: Reads stdin/);
    assert.doesNotMatch(markdown, /AC-1: AC-1|AC-2: AC-2/);
  });

  it("reads a change request's AC-n and KW-n the same way", () => {
    const request = ChangeRequest.parse({
      title: 'Add --json',
      summary: 'A JSON output.',
      changes: ['Add a flag'],
      acceptanceCriteria: ['AC-1: --json prints JSON'],
      mustKeepWorking: ['KW-1: plain output is unchanged', 'KW-2 - exit codes'],
      outOfScope: [],
    });
    assert.deepEqual(request.acceptanceCriteria, ['--json prints JSON']);
    assert.deepEqual(request.mustKeepWorking, ['plain output is unchanged', 'exit codes']);
    const markdown = renderChangeRequest(request);
    assert.match(markdown, /AC-1: --json prints JSON/);
    assert.match(markdown, /KW-2: exit codes/);
    assert.doesNotMatch(markdown, /(AC|KW)-\d: (AC|KW)-/);
  });

  it('says in the schema each model is shown that sopworks numbers the list, with its own prefix', () => {
    const description = (schema: object, key: string) =>
      (schema as { properties: Record<string, { description?: string }> }).properties[key]?.description ?? '';
    const prd = strictJsonSchema(PRD);
    const change = strictJsonSchema(ChangeRequest);
    assert.match(description(prd, 'acceptanceCriteria'), /sopworks labels them AC-1, AC-2, … itself: write each text alone/);
    assert.match(description(change, 'acceptanceCriteria'), /AC-1, AC-2/);
    assert.match(description(change, 'mustKeepWorking'), /sopworks labels them KW-1, KW-2/);
  });
});
