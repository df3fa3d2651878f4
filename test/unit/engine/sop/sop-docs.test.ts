/**
 * docs/sops.md tells the truth: its vocabulary tables are what the code accepts, its flowchart is the
 * shipped company's, and its walk-through's SOP is the one a test runs.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { loadCompany, vocabulary } from '../../../../src/company/index.ts';
import { companyFlowchart } from '../../../../src/engine/sop/company-flowchart.ts';
import { vocabularyReference } from '../../../../src/engine/sop/vocabulary-reference.ts';
import { ROLES, ROOT, SOPS } from '../../../helpers/paths.ts';

const readDoc = () => fs.readFile(path.join(ROOT, 'docs', 'sops.md'), 'utf8');

describe('docs/sops.md', () => {
  it('embeds the vocabulary exactly as `sopworks sop vocabulary` prints it', async () => {
    const doc = await readDoc();
    const block = /<!-- vocabulary:start -->\n([\s\S]*?)<!-- vocabulary:end -->/.exec(doc)?.[1];
    assert.equal(block, vocabularyReference(vocabulary), 'regenerate the block with `sopworks sop vocabulary`');
  });

  it('describes every entry of the vocabulary: each step, action, guard, view and message type says what it is', () => {
    const kinds = { steps: vocabulary.steps, actions: vocabulary.actions, guards: vocabulary.guards, views: vocabulary.views, messages: vocabulary.messages };
    for (const [kind, entries] of Object.entries(kinds)) {
      for (const [name, entry] of Object.entries(entries)) assert.ok(entry.description.trim().length > 10, `${kind} ${name} has a description`);
    }
  });

  it("shows lines of the shipped company's flowchart, each as `sop graph` draws it", async () => {
    const doc = await readDoc();
    const shown = /```mermaid\n(flowchart LR\n[\s\S]*?)```/.exec(doc)?.[1]?.trimEnd().split('\n') ?? [];
    const drawn = companyFlowchart((await loadCompany(SOPS, ROLES)).roles, vocabulary)
      .trimEnd()
      .split('\n');
    assert.ok(shown.length > 8);
    for (const line of shown) assert.ok(drawn.includes(line), `"${line}" is drawn`);
  });

  it("walks through the Technical Writer's SOP as the test fixture has it", async () => {
    const doc = await readDoc();
    const block = /```yaml\n( *id: technical-writer\n[\s\S]*?)```/.exec(doc)?.[1];
    assert.ok(block, 'the walk-through shows the SOP');
    const indent = /^ */.exec(block)![0].length;
    const shown = parse(
      block
        .split('\n')
        .map((line) => line.slice(indent))
        .join('\n'),
    );
    const fixture = parse(await fs.readFile(path.join(ROOT, 'test', 'fixtures', 'sop-technical-writer', 'sops', 'technical-writer.yaml'), 'utf8'));
    assert.deepEqual(shown, fixture);
  });
});
