/** The Documents, Code and Tests sections: what the run published, with its review and its story. */
import type { CodeFileView, CodeVersion, DocumentView, TestRoundView } from '../../server/api-types.ts';
import { roleChip } from './badges.ts';
import { diffView } from './diff-view.ts';
import { fill, h, scrollable } from './dom.ts';
import { short } from './format.ts';

/** The conversation subject of each document type (see conversation.ts). */
const DOC_SUBJECT: Record<string, string> = { PRD: 'prd', Design: 'design', TaskGraph: 'tasks' };
const BAD_STORY = /left|rejected|not published/;

export const commitRef = (hash: string | null): HTMLElement =>
  hash ? h('a', { class: 'hash', href: `#commit-${hash}` }, short(hash)) : h('span', { class: 'muted' }, 'not committed yet');

function documentCard(doc: DocumentView, file: DocumentView['files'][number]): HTMLDetailsElement {
  return h(
    'details',
    { class: 'card document', open: true, dataset: { key: `${doc.messageId}:${file.path}` } },
    h(
      'summary',
      {},
      h('code', {}, file.path),
      ' ',
      h('span', { class: 'type' }, doc.type),
      ' by ',
      roleChip(doc.from),
      ' ',
      doc.story ? h('span', { class: `badge ${/left|rejected/.test(doc.story) ? 'bad' : 'ok'}` }, doc.story) : null,
    ),
    // Links live outside <summary>: a link inside a control is two controls in one for a keyboard or a screen reader.
    h(
      'p',
      { class: 'muted' },
      'Message ',
      h('a', { href: `#${doc.messageId}` }, doc.messageId),
      doc.onBranch ? [' · commit ', commitRef(doc.commit)] : ' · kept in the run folder (.sopworks/documents/), not on the branch',
      doc.story ? [' · ', h('a', { href: `#thread-${DOC_SUBJECT[doc.type] ?? doc.type}` }, 'its conversation')] : null,
    ),
    h('div', { class: 'markdown', html: file.html }),
  );
}

export function renderDocuments(el: HTMLElement, documents: DocumentView[]): void {
  if (documents.length === 0) {
    fill(el, h('p', { class: 'muted' }, 'No documents yet.'));
    return;
  }
  fill(
    el,
    documents.flatMap((doc) => doc.files.map((file) => documentCard(doc, file))),
  );
}

function reviewNotes(review: CodeVersion['review'], kind: CodeFileView['kind']): HTMLElement {
  if (kind === 'test') return h('p', { class: 'muted' }, 'Written by QA; tests are not reviewed.');
  if (!review) return h('p', { class: 'review none' }, 'Not reviewed.');
  if (review.approved && review.issues.length === 0) return h('p', { class: 'review ok' }, '✓ Review approved.');
  return h(
    'div',
    { class: `review ${review.approved ? 'ok' : 'bad'}` },
    h('p', {}, review.approved ? '✓ Review approved, with notes:' : '✗ Committed with review issues left (the review bound was reached):'),
    h(
      'ul',
      {},
      review.issues.map((issue) => h('li', {}, issue)),
    ),
  );
}

/** What happened to a file, as its conversation tells it; the review verdict alone when there was none. */
function storyBadge(file: CodeFileView, review: CodeVersion['review']): HTMLElement | null {
  if (file.story) return h('span', { class: `badge ${BAD_STORY.test(file.story) ? 'bad' : 'ok'}` }, file.story);
  if (file.kind === 'test') return null;
  if (!review) return h('span', { class: 'badge' }, 'not reviewed');
  return review.approved ? h('span', { class: 'badge ok' }, 'approved') : h('span', { class: 'badge bad' }, `${review.issues.length} issues left`);
}

function latestVersion(file: CodeFileView, latest: CodeVersion): HTMLDivElement {
  return h(
    'div',
    { class: 'version' },
    h(
      'p',
      { class: 'muted' },
      'Latest, by ',
      roleChip(latest.from),
      ' in ',
      h('a', { href: `#${latest.messageId}` }, latest.messageId),
      ' · ',
      commitRef(latest.commit),
      file.story ? [` · ${file.story} (`, h('a', { href: `#thread-${file.path}` }, 'the conversation'), ')'] : null,
    ),
    reviewNotes(latest.review, file.kind),
    latest.diff
      ? h(
          'details',
          { class: 'changes', dataset: { key: `diff:${file.path}:${latest.messageId}` } },
          h('summary', {}, 'What changed from the version before'),
          diffView(latest.diff),
        )
      : null,
    scrollable('pre', { class: 'source' }, h('code', {}, latest.content)),
  );
}

function olderVersion(file: CodeFileView, v: CodeVersion): HTMLDetailsElement {
  return h(
    'details',
    { class: 'older', dataset: { key: `code:${file.path}:${v.messageId}` } },
    h('summary', {}, `Earlier version (${v.messageId})`),
    reviewNotes(v.review, file.kind),
    v.diff ? h('details', { class: 'changes' }, h('summary', {}, 'What changed from the version before'), diffView(v.diff)) : null,
    scrollable('pre', { class: 'source' }, h('code', {}, v.content)),
  );
}

function codeFile(file: CodeFileView): HTMLDetailsElement | null {
  const latest = file.versions.at(-1);
  if (!latest) return null;
  const n = file.versions.length;
  return h(
    'details',
    { class: 'card code-file', id: `file-${file.path}`, dataset: { key: `code:${file.path}` } },
    h(
      'summary',
      {},
      h('code', {}, file.path),
      ' ',
      h('span', { class: 'muted' }, `${file.kind} · ${n} version${n === 1 ? '' : 's'}`),
      ' ',
      storyBadge(file, latest.review),
    ),
    latestVersion(file, latest),
    file.versions
      .slice(0, -1)
      .reverse()
      .map((v) => olderVersion(file, v)),
  );
}

export function renderCode(el: HTMLElement, files: CodeFileView[]): void {
  if (files.length === 0) {
    fill(el, h('p', { class: 'muted' }, 'No code yet.'));
    return;
  }
  fill(el, files.map(codeFile));
}

function testRound(round: TestRoundView): HTMLDivElement {
  return h(
    'div',
    { class: `card round ${round.passed ? 'passed' : 'failed'}`, id: `tests-${round.messageId}`, dataset: { round: String(round.round) } },
    h(
      'h3',
      {},
      `Round ${round.round}: `,
      h('span', { class: `badge ${round.passed ? 'ok' : 'bad'}` }, round.summary),
      ' ',
      h('a', { href: `#${round.messageId}` }, round.messageId),
    ),
    h('div', { class: 'markdown', html: round.html }),
    h(
      'details',
      { dataset: { key: `output:${round.messageId}` } },
      h('summary', {}, 'Runner output (tail)'),
      scrollable('pre', {}, round.output || '(no output)'),
    ),
    round.bug
      ? h(
          'div',
          { class: 'bug' },
          h('p', {}, 'QA sent a bug report to ', roleChip(round.bug.to), ' ', h('a', { href: `#${round.bug.messageId}` }, round.bug.messageId), ':'),
          h('div', { class: 'markdown', html: round.bug.html }),
        )
      : null,
  );
}

export function renderTests(el: HTMLElement, rounds: TestRoundView[]): void {
  if (rounds.length === 0) {
    fill(el, h('p', { class: 'muted' }, 'No QA round yet.'));
    return;
  }
  fill(el, rounds.map(testRound));
}
