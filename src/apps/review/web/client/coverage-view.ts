/**
 * The Criteria section: the last coverage matrix, each criterion with its status and the tests that cite
 * it — each test linked to its file in Code and to its test round in Tests (whose runner output it opens),
 * with the lines of that output that name it — or its manual check: the review's verdict and the files read.
 */
import type { CoverageTestView, CoverageView, CriterionView } from '../../server/api-types.ts';
import { fill, h, scrollable } from './dom.ts';

const STATUS = {
  proven: ['ok', 'proven'],
  failing: ['bad', 'failing'],
  rejected: ['bad', 'rejected by its manual check'],
  untested: ['bad', 'untested — no test names it'],
} as const;

/** A criterion no automated test can prove: the review's verdict and reason, QA's reason, and the files read (each linked to Code). */
function manualCheck(manual: NonNullable<CriterionView['manual']>): HTMLDivElement {
  const verdict = manual.verdict ?? 'awaiting review';
  return h(
    'div',
    { class: `manual-check ${verdict}` },
    h(
      'p',
      {},
      h('span', { class: `badge ${manual.verdict === 'accepted' ? 'ok' : manual.verdict === null ? '' : 'bad'}` }, `manual: ${verdict}`),
      manual.verdictReason ? ` ${manual.verdictReason}` : null,
    ),
    h(
      'p',
      { class: 'muted' },
      `No automated test: ${manual.reason}. Read `,
      manual.artifacts.flatMap((path, i) => [i > 0 ? ', ' : '', h('a', { href: `#file-${path}` }, path)]),
      ` for: ${manual.lookFor}`,
    ),
  );
}

function testItem(test: CoverageTestView, roundLink: string | null): HTMLLIElement {
  return h(
    'li',
    { class: `criterion-test ${test.outcome}` },
    h('span', { class: `badge ${test.outcome === 'passed' ? 'ok' : test.outcome === 'failed' ? 'bad' : ''}` }, test.outcome),
    ' ',
    h('code', {}, test.name),
    h(
      'span',
      { class: 'muted' },
      test.file ? [' · in ', h('a', { href: `#file-${test.file}` }, test.file)] : ' · its file is not among the tests QA wrote',
      roundLink ? [' · ', h('a', { href: roundLink }, 'its round and output')] : null,
    ),
    test.output.length > 0 ? scrollable('pre', { class: 'test-output' }, test.output.join('\n')) : null,
  );
}

function criterionCard(criterion: CriterionView, roundLink: string | null): HTMLDivElement {
  const [tone, label] = STATUS[criterion.status];
  return h(
    'div',
    { class: `card criterion ${criterion.status}`, id: `criterion-${criterion.id}`, dataset: { criterion: criterion.id } },
    h(
      'h3',
      {},
      h('span', { class: 'criterion-id' }, criterion.id),
      ' ',
      h('span', { class: `badge ${tone}` }, label),
      ' ',
      h('span', { class: 'muted' }, criterion.priority),
    ),
    h('p', {}, criterion.text),
    criterion.tests.length > 0
      ? h(
          'ul',
          { class: 'criterion-tests' },
          criterion.tests.map((t) => testItem(t, roundLink)),
        )
      : criterion.manual
        ? null
        : h('p', { class: 'muted' }, 'No test names it.'),
    criterion.manual ? manualCheck(criterion.manual) : null,
  );
}

export function renderCoverage(el: HTMLElement, coverage: CoverageView | null): void {
  if (!coverage) {
    fill(el, h('p', { class: 'muted' }, 'No coverage matrix yet: it is built after each test round.'));
    return;
  }
  const roundLink = coverage.roundMessageId ? `#tests-${coverage.roundMessageId}` : null;
  fill(
    el,
    h(
      'p',
      { class: 'coverage-summary' },
      `After test round ${coverage.round}: ${coverage.summary}. `,
      h('a', { href: `#${coverage.messageId}` }, coverage.messageId),
    ),
    coverage.criteria.map((c) => criterionCard(c, roundLink)),
    coverage.strayCitations.length > 0
      ? h(
          'div',
          { class: 'card' },
          h('h3', {}, 'Tests citing no criterion of this run'),
          h(
            'ul',
            {},
            coverage.strayCitations.map((s) => h('li', {}, h('code', {}, s.test), `: ${s.ids.join(', ')}`)),
          ),
        )
      : null,
  );
}
