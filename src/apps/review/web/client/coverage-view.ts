/**
 * The Criteria section: the last coverage matrix, each criterion with its status and the tests that cite
 * it — each test linked to its file in Code and to its test round in Tests (whose runner output it opens),
 * with the lines of that output that name it.
 */
import type { CoverageTestView, CoverageView, CriterionView } from '../../server/api-types.ts';
import { fill, h, scrollable } from './dom.ts';

const STATUS = { proven: ['ok', 'proven'], failing: ['bad', 'failing'], untested: ['bad', 'untested — no test names it'] } as const;

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
      : h('p', { class: 'muted' }, 'No test names it.'),
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
