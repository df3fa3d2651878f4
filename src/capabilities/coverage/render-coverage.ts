/**
 * The committed coverage matrix (docs/test-reports/coverage.md): each criterion with its priority,
 * status and the tests that cite it — or its manual check and the review's verdict — as lists (a
 * criterion is a model's text, shown as written).
 */
import { type Coverage, describeCoverage, type ManualCheckState, TEST_LISTING_RULE } from '../../documents/index.ts';
import { codeSpan, document, item } from '../../ground/markdown.ts';

const STATUS_TEXT = {
  proven: 'proven',
  failing: 'FAILING',
  rejected: 'REJECTED by its manual check',
  untested: 'untested — no test cites it',
} as const;

/** "manual: accepted (the README shows …)": QA's declaration, the files it reads, and the review's verdict. */
function manualLines(manual: ManualCheckState): string[] {
  const verdict = manual.verdict === null ? 'awaiting review' : `${manual.verdict} (${manual.verdictReason})`;
  return [`  - manual: ${verdict}`, `  - no automated test: ${manual.reason}; read ${manual.artifacts.map(codeSpan).join(', ')} for: ${manual.lookFor}`];
}

export function renderCoverage(coverage: Coverage): string {
  return document(
    `# Coverage — test round ${coverage.round}`,
    `${describeCoverage(coverage)}. A criterion is proven by a passing test that names its id (\`AC-3\`, \`test_ac3_…\`, \`TestAC3…\`) and no failing one — or, one no automated test can prove, by a manual check its review accepted; P0 criteria must all be proven.`,
    coverage.testsNamed === 0 ? `The test output names no test: ${TEST_LISTING_RULE}.` : null,
    coverage.criteria
      .map((c) =>
        [
          item(`**${c.id}** (${c.priority}, ${STATUS_TEXT[c.status]}): ${c.text}`),
          ...c.tests.map((t) => `  - ${t.outcome}: ${codeSpan(t.name)}`),
          ...(c.manual ? manualLines(c.manual) : []),
        ].join('\n'),
      )
      .join('\n'),
    coverage.strayCitations.length > 0
      ? `## Tests citing no criterion of this run\n\n${coverage.strayCitations.map((s) => item(`${codeSpan(s.test)}: ${s.ids.join(', ')}`)).join('\n')}`
      : null,
  );
}
