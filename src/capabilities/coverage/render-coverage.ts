/**
 * The committed coverage matrix (docs/test-reports/coverage.md): each criterion with its priority,
 * status and the tests that cite it, as lists (a criterion is a model's text, shown as written).
 */
import { type Coverage, describeCoverage, TEST_LISTING_RULE } from '../../documents/index.ts';
import { codeSpan, document, item } from '../../ground/markdown.ts';

const STATUS_TEXT = { proven: 'proven', failing: 'FAILING', untested: 'untested — no test cites it' } as const;

export function renderCoverage(coverage: Coverage): string {
  return document(
    `# Coverage — test round ${coverage.round}`,
    `${describeCoverage(coverage)}. A criterion is proven by a passing test that names its id (\`AC-3\`, \`test_ac3_…\`, \`TestAC3…\`) and no failing one; P0 criteria must all be proven.`,
    coverage.testsNamed === 0 ? `The test output names no test: ${TEST_LISTING_RULE}.` : null,
    coverage.criteria
      .map((c) =>
        [item(`**${c.id}** (${c.priority}, ${STATUS_TEXT[c.status]}): ${c.text}`), ...c.tests.map((t) => `  - ${t.outcome}: ${codeSpan(t.name)}`)].join('\n'),
      )
      .join('\n'),
    coverage.strayCitations.length > 0
      ? `## Tests citing no criterion of this run\n\n${coverage.strayCitations.map((s) => item(`${codeSpan(s.test)}: ${s.ids.join(', ')}`)).join('\n')}`
      : null,
  );
}
