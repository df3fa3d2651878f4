/**
 * `sopworks sop graph`: the company's message flow as a mermaid flowchart, and each SOP as a state
 * diagram.
 */
import assert from 'node:assert/strict';
import { loadCompany, vocabulary } from '../../../../src/company/index.ts';
import { companyFlowchart } from '../../../../src/engine/sop/company-flowchart.ts';
import { companyGraph, roleGraph } from '../../../../src/engine/sop/company-graph.ts';
import { SopFile } from '../../../../src/engine/steps/index.ts';
import { SopworksError } from '../../../../src/ground/errors.ts';
import { ROLES, SOPS } from '../../../helpers/paths.ts';

describe('sop graph', () => {
  it('draws who sends what to whom in the shipped company', async () => {
    const company = await loadCompany(SOPS, ROLES);
    const lines = companyFlowchart(company.roles, vocabulary).trimEnd().split('\n');
    assert.deepEqual(lines.slice(0, 8), [
      'flowchart LR',
      '  Client(["client"])',
      '  product_manager["product-manager"]',
      '  architect["architect"]',
      '  engineer["engineer"]',
      '  qa["qa"]',
      '  Company(["company: ends the run"])',
      '  Repository[("git repository")]',
    ]);
    const edges = lines.slice(8);
    for (const edge of [
      '  Client -->|Requirement| product_manager',
      '  product_manager -->|PRD| architect',
      '  architect -.->|Design| Repository',
      '  architect -->|TaskGraph| engineer',
      '  engineer -.->|Code| Repository',
      '  engineer -->|CodeComplete| qa',
      '  qa -.->|TestReport| Repository',
      '  qa -->|BugReport| engineer',
      '  qa -->|Outcome| Company',
    ]) {
      assert.ok(edges.includes(edge), `${edge} is drawn`);
    }
    assert.equal(edges.filter((e) => /\|BugReport\|/.test(e)).length, 1, 'the bug report goes to the engineer only');
    assert.equal(new Set(edges).size, edges.length, 'each edge once');
  });

  it('follows `to:` addressing, and sends an unread message without files to no one', () => {
    const sop = (id: string, publish: { type: string; to?: string }) =>
      SopFile.parse({
        id,
        initial: 'idle',
        states: {
          idle: { on: { Requirement: 'sending' } },
          sending: { invoke: { src: 'publish', input: { type: publish.type, ...(publish.to ? { to: publish.to } : {}) }, onDone: 'idle' } },
        },
      });
    const chart = companyFlowchart(
      [
        { id: 'a', watches: ['Requirement'], sop: sop('a', { type: 'BugReport', to: 'b' }) },
        { id: 'b', watches: ['BugReport', 'CodeComplete'], sop: sop('b', { type: 'CodeComplete' }) },
        { id: 'c', watches: ['BugReport'], sop: null },
      ],
      vocabulary,
    );
    assert.match(chart, /^ {2}a -->\|BugReport\| b$/m);
    assert.doesNotMatch(chart, /-->\|BugReport\| c/, 'a message addressed to b reaches b only');
    assert.match(chart, /^ {2}b -\.->\|CodeComplete\| NoOne$/m, 'b does not receive its own message');
    assert.match(chart, /^ {2}NoOne\[\/"no one"\/\]$/m);
  });

  it('puts the flowchart and every state diagram on one Markdown page, or draws one role', async () => {
    const company = await loadCompany(SOPS, ROLES);
    const page = companyGraph(company);
    assert.match(page, /^# sopworks default company\n/);
    assert.equal(page.match(/^```mermaid\nflowchart LR$/gm)?.length, 1);
    assert.equal(page.match(/^```mermaid\nstateDiagram-v2$/gm)?.length, 4);
    assert.match(page, /^## qa\n\n`.*qa\.yaml` — watches CodeComplete, ManualVerdicts\n\n```mermaid\nstateDiagram-v2\n {2}\[\*\] --> idle$/m);

    const qa = roleGraph(company, 'qa');
    assert.match(qa, /^stateDiagram-v2\n/);
    assert.match(qa, /^ {2}judging --> triaging : \[below\]$/m);
    assert.throws(
      () => roleGraph(company, 'designer'),
      (error: unknown) => {
        assert.ok(SopworksError.isInstance(error));
        assert.equal(error.message, 'No role "designer" is hired in this company.');
        assert.match(error.hint!, /product-manager, architect, engineer, qa/);
        return true;
      },
    );
  });
});
