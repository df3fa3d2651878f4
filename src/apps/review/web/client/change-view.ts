/**
 * A change run reviewed as a diff: its branch and base (linked to the base's run when it is here), what
 * changed — the code, the tests it added, its documents — file by file against the base, and the
 * commands that see it whole, merge it and clean up. A run that others changed lists those changes.
 */
import type { ChangeFile, ChangeView, RunRelations } from '../../server/api-types.ts';
import { diffView } from './diff-view.ts';
import { fill, h } from './dom.ts';
import { humanTime } from './format.ts';

export interface ChangeData {
  change: ChangeView | null;
  relations: RunRelations;
}

const STATUS: Record<ChangeFile['status'], string> = { added: 'added', modified: 'modified', deleted: 'deleted', renamed: 'renamed' };
const GROUPS: [ChangeFile['kind'], string][] = [
  ['code', 'Code'],
  ['test', 'Tests it added or changed'],
  ['document', 'Its documents'],
];

const counts = (f: Pick<ChangeFile, 'added' | 'removed'>) => (f.added === null || f.removed === null ? 'binary' : `+${f.added} −${f.removed}`);

function fileCard(file: ChangeFile): HTMLDetailsElement {
  return h(
    'details',
    { class: 'card change-file', open: file.kind !== 'document', dataset: { key: `change:${file.path}`, kind: file.kind, status: file.status } },
    h(
      'summary',
      {},
      h('code', {}, file.path),
      ' ',
      h('span', { class: `badge ${file.status === 'deleted' ? 'bad' : file.status === 'added' ? 'ok' : ''}` }, STATUS[file.status]),
      ' ',
      h('span', { class: 'num' }, counts(file)),
    ),
    file.from ? h('p', { class: 'muted' }, 'Renamed from ', h('code', {}, file.from)) : null,
    file.patch ? diffView(file.patch) : h('p', { class: 'muted' }, 'No text to show (a binary file, or only its mode changed).'),
  );
}

function commands(view: ChangeView): HTMLElement {
  const row = (label: string, command: string, note: string | null) => [
    h('dt', {}, label),
    h('dd', {}, h('code', { class: 'command' }, command), note ? h('span', { class: 'muted' }, ` ${note}`) : null),
  ];
  return h(
    'dl',
    { class: 'facts commands' },
    row('See it whole', view.commands.review, null),
    row('Merge it', view.commands.merge, `(with ${view.baseName} checked out there)`),
    row('Clean up', view.commands.cleanUp, "(after the merge: the work tree goes, with the run's record in it)"),
  );
}

function changeOf(view: ChangeView, baseRun: string | null): HTMLElement[] {
  const added = view.files.reduce((n, f) => n + (f.added ?? 0), 0);
  const removed = view.files.reduce((n, f) => n + (f.removed ?? 0), 0);
  const tests = view.files.filter((f) => f.kind === 'test' && f.status !== 'deleted');
  const base = baseRun ? h('a', { href: `/runs/${encodeURIComponent(baseRun)}` }, baseRun) : h('code', {}, view.repo);
  return [
    h(
      'p',
      { class: 'change-of' },
      'A change of ',
      base,
      ' on the branch ',
      h('code', {}, view.branch),
      `, from ${view.baseName} (`,
      h('code', {}, view.base.slice(0, 12)),
      ').',
    ),
    h(
      'p',
      { class: 'change-totals' },
      `${view.files.length} file${view.files.length === 1 ? '' : 's'} changed, `,
      h('span', { class: 'num' }, `+${added} −${removed}`),
      tests.length === 0
        ? '; no test added or changed.'
        : `; ${tests.length} test file${tests.length === 1 ? '' : 's'}: ${tests.map((t) => t.path).join(', ')}.`,
    ),
    view.problem ? h('p', { class: 'error' }, view.problem) : null,
    commands(view),
    ...GROUPS.flatMap(([kind, title]) => {
      const files = view.files.filter((f) => f.kind === kind);
      return files.length === 0 ? [] : [h('h3', {}, title), ...files.map(fileCard)];
    }),
    view.cut ? h('p', { class: 'muted' }, 'The diff is longer than shown here: see it whole with the command above.') : null,
  ].filter((x): x is HTMLElement => x !== null);
}

function changesMade(relations: RunRelations): HTMLElement {
  return h(
    'ul',
    { class: 'changes-made' },
    relations.changes.map((c) =>
      h(
        'li',
        {},
        h('a', { href: `/runs/${encodeURIComponent(c.name)}` }, c.name),
        ' on ',
        h('code', {}, c.branch),
        ` — ${c.outcome ?? 'not finished'}, started ${humanTime(c.startedAt)}`,
      ),
    ),
  );
}

/** The change section: shown for a change run, and for a run changes were made of; hidden otherwise. */
export function renderChange(section: HTMLElement, body: HTMLElement, data: ChangeData): void {
  const { change, relations } = data;
  section.hidden = change === null && relations.changes.length === 0;
  const heading = section.querySelector('h2');
  if (heading) heading.textContent = change ? 'The change, against its base' : 'Changes made of this run';
  fill(
    body,
    change ? changeOf(change, relations.changeBase) : null,
    relations.changes.length > 0 ? [change ? h('h3', {}, 'Changes made of this run') : null, changesMade(relations)] : null,
  );
}
