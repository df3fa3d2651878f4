/** The run page's frame: its header, decision area, search, and one section per part of the run. */
import { fill, h } from './dom.ts';
import { searchBox } from './search-box.ts';
import { type TimelineToolbar, timelineToolbar } from './timeline.ts';

const SECTIONS = [
  ['timeline', 'Timeline'],
  ['conversations', 'Conversations'],
  ['documents', 'Documents'],
  ['code', 'Code'],
  ['criteria', 'Criteria'],
  ['tests', 'Tests'],
  ['usage', 'Usage'],
  ['activity', 'Who worked when'],
  ['roles', 'SOPs'],
  ['commits', 'Commits'],
  ['exchanges', 'Model exchanges'],
] as const;
type SectionId = (typeof SECTIONS)[number][0];

/** A section folded away until the reader opens it (its content is fetched then). */
export interface Toggle<T extends HTMLElement> {
  toggle: HTMLDetailsElement;
  body: T;
}

export interface RunSkeleton {
  summary: HTMLElement;
  warnings: HTMLElement;
  /** Now working on, a run this viewer started, and what to do next. */
  workbench: HTMLElement;
  decision: HTMLElement;
  decided: HTMLElement;
  /** A change run's diff, or the changes made of this run: hidden when neither. */
  change: { section: HTMLElement; body: HTMLElement };
  timeline: { list: HTMLOListElement; more: HTMLButtonElement; toolbar: TimelineToolbar };
  documents: HTMLElement;
  code: HTMLElement;
  criteria: HTMLElement;
  tests: HTMLElement;
  usage: HTMLElement;
  roles: HTMLElement;
  commits: HTMLOListElement;
  exchanges: Toggle<HTMLOListElement> & { more: HTMLButtonElement };
  activity: Toggle<HTMLDivElement>;
  conversations: Toggle<HTMLDivElement>;
}

const more = () => h('button', { type: 'button', class: 'more', hidden: true });

function toggle<T extends HTMLElement>(key: string, label: string, body: T, ...after: HTMLElement[]): Toggle<T> {
  return { toggle: h('details', { class: 'section-toggle', dataset: { key } }, h('summary', {}, label), body, ...after), body };
}

export function runSkeleton(app: HTMLElement, name: string): RunSkeleton {
  const bodies = Object.fromEntries(SECTIONS.map(([id]) => [id, h('div', { class: 'section-body' })])) as Record<SectionId, HTMLDivElement>;
  const skeleton: RunSkeleton = {
    summary: h('section', { id: 'summary', class: 'summary' }),
    warnings: h('section', { id: 'warnings' }),
    workbench: h('section', { id: 'workbench', 'aria-label': 'Workbench' }),
    decision: h('div', { class: 'decision-requests' }),
    decided: h('div', { class: 'decision-result', role: 'status' }),
    change: { section: h('section', { id: 'change', class: 'run-section', hidden: true }), body: h('div', { class: 'section-body' }) },
    timeline: { list: h('ol', { class: 'timeline' }), more: more(), toolbar: timelineToolbar(bodies.timeline) },
    documents: bodies.documents,
    code: bodies.code,
    criteria: bodies.criteria,
    tests: bodies.tests,
    usage: bodies.usage,
    roles: bodies.roles,
    commits: h('ol', { class: 'commits' }),
    exchanges: { ...toggle('exchanges', 'Show every model call: prompt and reply', h('ol', { class: 'exchanges' })), more: more() },
    activity: toggle('activity', 'Show model calls per role over time, and tokens over time', h('div', {})),
    conversations: toggle('conversations', 'Show how each artifact was drafted, reviewed, revised and decided', h('div', { class: 'threads' })),
  };
  const { timeline, exchanges, change } = skeleton;
  change.section.append(h('h2', {}, 'The change'), change.body);
  bodies.timeline.append(timeline.toolbar.bar, timeline.list, timeline.more);
  bodies.commits.append(skeleton.commits);
  exchanges.toggle.append(exchanges.more);
  bodies.exchanges.append(exchanges.toggle);
  bodies.activity.append(skeleton.activity.toggle);
  bodies.conversations.append(skeleton.conversations.toggle);
  fill(
    app,
    skeleton.summary,
    skeleton.warnings,
    // What waits for a person comes first, then what a change is; then the work and what to do next.
    h('section', { id: 'decision', 'aria-label': 'Decision' }, skeleton.decision, skeleton.decided),
    change.section,
    skeleton.workbench,
    searchBox(name),
    h(
      'nav',
      { class: 'sections' },
      SECTIONS.map(([id, title]) => h('a', { href: `#${id}` }, title)),
    ),
    SECTIONS.map(([id, title]) => h('section', { id, class: 'run-section' }, h('h2', {}, title), bodies[id])),
  );
  return skeleton;
}
