// The sopworks viewer page: plain ES module, no build step. It draws what the server's JSON API says
// and, on a run's page, redraws when the server's event stream says the run changed. Text is always
// set as text; the only HTML inserted is what the server rendered and sanitised (markdown, charts) and
// the SVG that mermaid draws in strict mode.

const app = document.getElementById('app');
const crumbs = document.getElementById('crumbs');
const live = document.getElementById('live');

/** Creates an element. attrs: class, html (trusted server HTML), dataset, on<event>, anything else as attribute. */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') el.className = value;
    else if (key === 'html') el.innerHTML = value;
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Replaces an element's children, skipping the null/false of conditional parts. */
function fill(el, ...children) {
  el.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
}

/** An error the server answered with: its HTTP status, its message and its hint. */
class ServerError extends Error {
  constructor(status, message, hint) {
    super(message);
    this.status = status;
    this.hint = hint ?? null;
  }
}

async function getJson(url) {
  let res;
  try {
    res = await fetch(url, { headers: { accept: 'application/json' } });
  } catch {
    throw new ServerError(0, "The viewer's server cannot be reached.", 'Is `sopworks serve` still running? Start it again, then reload this page.');
  }
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new ServerError(res.status, body?.error ?? `${res.status} ${res.statusText}`, body?.hint);
  return body;
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)}s`;
const short = (hash) => hash.slice(0, 7);
const runUrl = (name) => `/api/runs/${encodeURIComponent(name)}`;

/** A role's colour, the same on every page: a hue from its name. */
function roleChip(role) {
  let hash = 0;
  for (const c of role) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
  const chip = h('span', { class: 'role' }, role);
  chip.style.setProperty('--hue', String(hash % 360));
  return chip;
}

function statusBadge(status) {
  if (status.finished) {
    return h('span', { class: `badge ${status.outcome === 'done' ? 'ok' : 'bad'}` }, status.outcome);
  }
  return status.running
    ? h('span', { class: 'badge running' }, 'in progress')
    : h('span', { class: 'badge stopped', title: 'No sopworks process is at work on it: `sopworks resume` continues it.' }, 'stopped before an outcome');
}

/** What went wrong, said as what happened: a server that is gone, a run that is not there, a run that cannot be read. */
function errorTitle(error) {
  if (!(error instanceof ServerError)) return 'The page failed';
  if (error.status === 0) return "The viewer's server is not answering";
  if (error.status === 404) return 'Not found';
  if (error.status >= 500) return 'The server could not read this';
  return 'The server refused this';
}

function showError(error) {
  fill(
    app,
    h(
      'section',
      { class: 'error-page', role: 'alert' },
      h('h1', {}, errorTitle(error)),
      h('p', { class: 'error' }, error.message),
      error.hint ? h('p', {}, error.hint) : null,
      h('p', {}, h('a', { href: '/' }, 'Back to the runs')),
    ),
  );
}

// ---------------------------------------------------------------------------------------------------
// Mermaid: loaded from this server on first use, and run one diagram at a time.

let mermaidLoaded = null;
function loadMermaid() {
  mermaidLoaded ??= new Promise((resolve, reject) => {
    const script = h('script', { src: '/assets/mermaid.min.js' });
    script.onload = () => {
      window.mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: 'neutral' });
      resolve(window.mermaid);
    };
    script.onerror = () => reject(new Error('the diagram library (/assets/mermaid.min.js) could not be loaded'));
    document.head.append(script);
  });
  return mermaidLoaded;
}

let diagramCount = 0;
let drawing = Promise.resolve();
/** Drawn SVG by mermaid source: a section redrawn with the same diagram shows it at once, without a flicker. */
const drawnSvg = new Map();
function drawDiagrams(root) {
  drawing = drawing.then(async () => {
    const pending = [...root.querySelectorAll('.diagram:not([data-state])')];
    if (pending.length === 0) return;
    let mermaid;
    try {
      mermaid = await loadMermaid();
    } catch (error) {
      for (const el of pending) {
        el.dataset.state = 'error';
        el.prepend(h('p', { class: 'diagram-error' }, `Not drawn: ${error.message}. Its source:`));
      }
      return;
    }
    for (const el of pending) {
      if (!el.isConnected) continue;
      el.dataset.state = 'drawing';
      const source = el.querySelector('.diagram-source')?.textContent ?? '';
      try {
        const svg = drawnSvg.get(source) ?? (await mermaid.render(`diagram-${++diagramCount}`, source)).svg;
        drawnSvg.set(source, svg);
        el.prepend(h('div', { class: 'diagram-svg', html: svg }));
        el.dataset.state = 'drawn';
      } catch (error) {
        el.dataset.state = 'error';
        el.prepend(h('p', { class: 'diagram-error' }, `This diagram could not be drawn: ${error.message ?? error}. Its source:`));
      }
    }
  });
  return drawing;
}

/** A mermaid source to be drawn (the same placeholder the server puts in rendered markdown). */
const diagram = (source) => h('div', { class: 'diagram' }, h('pre', { class: 'diagram-source' }, source));

// ---------------------------------------------------------------------------------------------------
// The list of runs.

/** `load`, never twice at once: a call while it runs makes it run once more afterwards (changes coalesce). */
function oneAtATime(load) {
  let loading = false;
  let again = false;
  const run = async () => {
    if (loading) {
      again = true;
      return;
    }
    loading = true;
    try {
      await load();
    } finally {
      loading = false;
      if (again) {
        again = false;
        run();
      }
    }
  };
  return run;
}

async function showRuns() {
  document.title = 'Runs · sopworks';
  fill(crumbs, h('span', {}, 'runs'));
  const refresh = oneAtATime(async () => {
    try {
      renderRuns(await getJson('/api/runs'));
    } catch (error) {
      showError(error);
    }
  });
  // New runs, and runs moving on, show up without a reload.
  new EventSource('/api/events').addEventListener('change', refresh);
  await refresh();
}

/** A run's state in one word, for filtering: its outcome, or whether it is at work or stopped. */
const stateOf = (run) => (run.problem ? 'unreadable' : run.status.finished ? run.status.outcome : run.status.running ? 'in progress' : 'stopped');
const money = (usd) => (usd === null || usd === undefined ? '—' : `$${usd.toFixed(usd < 1 ? 4 : 2)}`);
const duration = (ms) => {
  if (ms === null || ms === undefined) return '—';
  if (ms < 60_000) return seconds(ms);
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
};
const count = (n) => (n === null || n === undefined ? '—' : n.toLocaleString('en-US'));

const RUN_SORTS = {
  newest: ['newest first', (a, b) => (b.startedAt ?? '').localeCompare(a.startedAt ?? '')],
  oldest: ['oldest first', (a, b) => (a.startedAt ?? '').localeCompare(b.startedAt ?? '')],
  longest: ['longest first', (a, b) => (b.wallMs ?? -1) - (a.wallMs ?? -1)],
  tokens: ['most tokens first', (a, b) => (b.tokens ?? -1) - (a.tokens ?? -1)],
  cost: ['most cost first', (a, b) => (b.costUsd ?? -1) - (a.costUsd ?? -1)],
  name: ['by name', (a, b) => a.name.localeCompare(b.name)],
};
/** The list's filter and order, kept while the list redraws itself. */
const runsView = { state: 'all', sort: 'newest', last: null };

function renderRuns(answer) {
  runsView.last = answer;
  const focused = document.activeElement?.id;
  const { root, runs } = answer;
  const states = [...new Set(runs.map(stateOf))].sort();
  if (runsView.state !== 'all' && !states.includes(runsView.state)) states.push(runsView.state);
  const shown = runs.filter((run) => runsView.state === 'all' || stateOf(run) === runsView.state).sort(RUN_SORTS[runsView.sort][1]);
  const cell = (label, attrs, ...content) => h('td', { ...attrs, dataset: { label } }, ...content);
  const rows = shown.map((run) =>
    h(
      'tr',
      { class: 'run-row', dataset: { run: run.name, state: stateOf(run) } },
      cell('run', {}, h('a', { href: `/runs/${encodeURIComponent(run.name)}` }, run.name)),
      cell('outcome', {}, run.problem ? h('span', { class: 'badge bad' }, 'unreadable') : statusBadge(run.status)),
      cell('spec', { class: 'spec' }, run.problem ?? run.spec ?? ''),
      cell('duration', { class: 'num' }, duration(run.wallMs)),
      cell('calls', { class: 'num' }, count(run.calls)),
      cell('tokens', { class: 'num' }, count(run.tokens)),
      cell('cost', { class: 'num' }, money(run.costUsd)),
      cell('messages', { class: 'num' }, String(run.messages)),
      cell('started', { class: 'muted' }, run.startedAt ?? ''),
      cell('model', { class: 'muted' }, run.model ?? ''),
    ),
  );
  const select = (id, label, value, options, onchange) =>
    h(
      'label',
      { for: id },
      label,
      h(
        'select',
        { id, onchange: (e) => onchange(e.target.value) },
        options.map(([v, text]) => h('option', { value: v, selected: v === value }, text)),
      ),
    );
  const redraw = () => renderRuns(runsView.last);
  fill(
    app,
    h('h1', {}, 'Runs'),
    h('p', { class: 'muted' }, `In ${root}`),
    runs.length === 0
      ? h(
          'p',
          {},
          'No sopworks runs here yet. Make one with ',
          h('code', {}, 'sopworks run "…"'),
          ' (or the offline demo: ',
          h('code', {}, 'npm run demo'),
          ').',
        )
      : [
          h(
            'div',
            { class: 'toolbar' },
            select(
              'runs-state',
              'Outcome',
              runsView.state,
              [['all', `all (${runs.length})`], ...states.map((st) => [st, `${st} (${runs.filter((r) => stateOf(r) === st).length})`])],
              (v) => {
                runsView.state = v;
                redraw();
              },
            ),
            select(
              'runs-sort',
              'Sort',
              runsView.sort,
              Object.entries(RUN_SORTS).map(([k, [text]]) => [k, text]),
              (v) => {
                runsView.sort = v;
                redraw();
              },
            ),
          ),
          h(
            'table',
            { class: 'runs' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                ['run', 'outcome', 'spec', 'duration', 'calls', 'tokens', 'cost', 'messages', 'started', 'model'].map((c, i) =>
                  h('th', { class: i >= 3 && i <= 7 ? 'num' : null, scope: 'col' }, c),
                ),
              ),
            ),
            h('tbody', {}, rows),
          ),
        ],
  );
  // Keep keyboard focus on the control that redrew the list.
  if (focused) document.getElementById(focused)?.focus();
}

// ---------------------------------------------------------------------------------------------------
// One run.

const SECTIONS = [
  ['timeline', 'Timeline'],
  ['conversations', 'Conversations'],
  ['documents', 'Documents'],
  ['code', 'Code'],
  ['tests', 'Tests'],
  ['usage', 'Usage'],
  ['activity', 'Who worked when'],
  ['roles', 'SOPs'],
  ['commits', 'Commits'],
  ['exchanges', 'Model exchanges'],
];

function runSkeleton() {
  const sections = Object.fromEntries(SECTIONS.map(([id]) => [id, h('div', { class: 'section-body' })]));
  const summary = h('section', { id: 'summary', class: 'summary' });
  const warnings = h('section', { id: 'warnings' });
  const decision = h('div', { class: 'decision-requests' });
  const decided = h('div', { class: 'decision-result', role: 'status' });
  const search = searchBox();
  fill(
    app,
    summary,
    warnings,
    h('section', { id: 'decision', 'aria-label': 'Decision' }, decision, decided),
    search,
    h(
      'nav',
      { class: 'sections' },
      SECTIONS.map(([id, title]) => h('a', { href: `#${id}` }, title)),
    ),
    ...SECTIONS.map(([id, title]) => h('section', { id, class: 'run-section' }, h('h2', {}, title), sections[id])),
  );
  sections.timeline.append(h('ol', { class: 'timeline' }));
  sections.timeline.prepend(timelineToolbar(sections.timeline));
  const timelineMore = h('button', { type: 'button', class: 'more', hidden: true });
  sections.timeline.append(timelineMore);
  sections.timeline.more = timelineMore;
  sections.commits.append(h('ol', { class: 'commits' }));
  const exchangeList = h('ol', { class: 'exchanges' });
  const exchangesMore = h('button', { type: 'button', class: 'more', hidden: true });
  const exchangesToggle = h(
    'details',
    { class: 'section-toggle', dataset: { key: 'exchanges' } },
    h('summary', {}, 'Show every model call: prompt and reply'),
    exchangeList,
    exchangesMore,
  );
  sections.exchanges.append(exchangesToggle);
  Object.assign(sections.exchanges, { toggle: exchangesToggle, list: exchangeList, more: exchangesMore });
  const activityBody = h('div', {});
  const activityToggle = h(
    'details',
    { class: 'section-toggle', dataset: { key: 'activity' } },
    h('summary', {}, 'Show model calls per role over time, and tokens over time'),
    activityBody,
  );
  sections.activity.append(activityToggle);
  Object.assign(sections.activity, { toggle: activityToggle, body: activityBody });
  const threads = h('div', { class: 'threads' });
  const toggle = h(
    'details',
    { class: 'section-toggle', dataset: { key: 'conversations' } },
    h('summary', {}, 'Show how each artifact was drafted, reviewed, revised and decided'),
    threads,
  );
  sections.conversations.append(toggle);
  sections.conversations.threads = threads;
  sections.conversations.toggle = toggle;
  return { summary, warnings, decision, decided, sections };
}

/** Where a search hit links: a message in the timeline, a file in Code, an exchange. */
const hitHref = (hit) => (hit.kind === 'message' ? `#${hit.target}` : hit.kind === 'file' ? `#file-${hit.target}` : `#exchange-${hit.target}`);

/** A search over the run's messages, files and model exchanges (answered by the server). */
function searchBox() {
  const input = h('input', { type: 'search', id: 'run-search', name: 'q', minlength: '2', placeholder: 'a word, a file name, an error…' });
  const results = h('div', { class: 'search-results', role: 'status' });
  const form = h(
    'form',
    { class: 'toolbar search', role: 'search' },
    h('label', { for: 'run-search' }, 'Search this run'),
    input,
    h('button', { type: 'submit' }, 'Search'),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const name = decodeURIComponent(location.pathname.split('/')[2] ?? '');
    const q = input.value.trim();
    if (q.length < 2) return fill(results, h('p', { class: 'muted' }, 'Give at least 2 characters.'));
    fill(results, h('p', { class: 'muted' }, 'Searching…'));
    try {
      const answer = await getJson(`${runUrl(name)}/search?q=${encodeURIComponent(q)}`);
      fill(
        results,
        h(
          'p',
          {},
          answer.hits.length === 0
            ? `Nothing matches “${q}”.`
            : `${answer.hits.length}${answer.truncated ? '+' : ''} match${answer.hits.length === 1 ? '' : 'es'} for “${q}”:`,
        ),
        answer.hits.length
          ? h(
              'ul',
              { class: 'hits' },
              answer.hits.map((hit) =>
                h(
                  'li',
                  { dataset: { kind: hit.kind } },
                  h('span', { class: 'badge' }, hit.kind),
                  ' ',
                  h('a', { href: hitHref(hit) }, hit.title),
                  h('div', { class: 'muted snippet' }, hit.snippet),
                ),
              ),
            )
          : null,
      );
    } catch (error) {
      fill(results, h('p', { class: 'error' }, error.message));
    }
  });
  return h('section', { class: 'search-section', 'aria-label': 'Search' }, form, results);
}

/** Sends a decision: POST, JSON, with the page's cookie — the server checks the token, Origin and Host. */
async function postDecision(name, approved, feedback) {
  let res;
  try {
    res = await fetch(`${runUrl(name)}/decision`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ approved, feedback: feedback || null }),
    });
  } catch {
    throw new ServerError(0, "The viewer's server cannot be reached; nothing was decided.");
  }
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new ServerError(res.status, body?.error ?? `${res.status} ${res.statusText}`);
  return body;
}

function renderDecision(el, resultEl, name, { pending, running, canDecide, dir }) {
  if (pending.length === 0) return fill(el);
  const what = (r) => `the ${r.gate}${r.key ? ` ${r.key}` : ''} of ${r.role}`;
  const requests = pending.map((r) =>
    h(
      'details',
      { class: 'card request', open: true, dataset: { key: `request:${r.role}:${r.gate}:${r.key}:${r.round}` } },
      h('summary', {}, `Approve ${what(r)}?`),
      h('div', { class: 'markdown', html: r.html }),
    ),
  );
  let controls;
  if (running) {
    controls = h('p', { class: 'muted' }, 'The run is still at work; decide once it has stopped.');
  } else if (!canDecide) {
    controls = h(
      'p',
      { class: 'muted' },
      'To decide from this page, open the URL ',
      h('code', {}, 'sopworks serve'),
      ' printed (it ends in ',
      h('code', {}, '?token=…'),
      '). Or, in a terminal: ',
      h('code', {}, `sopworks approve ${dir}`),
      '.',
    );
  } else {
    const feedback = h('textarea', { id: 'decision-feedback', name: 'feedback', rows: '3' });
    const problem = h('p', { class: 'error', role: 'alert' });
    const send = async (approved) => {
      problem.textContent = '';
      if (!approved && feedback.value.trim() === '') {
        problem.textContent = 'Say what should change: a rejection needs feedback.';
        feedback.focus();
        return;
      }
      for (const b of form.querySelectorAll('button')) b.disabled = true;
      try {
        const answer = await postDecision(name, approved, feedback.value.trim());
        fill(
          resultEl,
          h(
            'p',
            { class: approved ? 'review ok' : 'review bad' },
            `${approved ? 'Approved' : 'Rejected'} ${answer.decided.map((d) => d.what).join(', ')}. Recorded on the board; continue the run with `,
            h('code', {}, answer.next),
            '.',
          ),
        );
      } catch (error) {
        problem.textContent = error.message;
      } finally {
        for (const b of form.querySelectorAll('button')) b.disabled = false;
      }
    };
    const form = h(
      'form',
      { class: 'decide', onsubmit: (event) => event.preventDefault() },
      h('label', { for: 'decision-feedback' }, 'Feedback for the role (needed to reject)'),
      feedback,
      h(
        'div',
        { class: 'buttons' },
        h('button', { type: 'button', class: 'approve', onclick: () => send(true) }, 'Approve'),
        h('button', { type: 'button', class: 'reject', onclick: () => send(false) }, 'Reject with feedback'),
      ),
      problem,
    );
    controls = form;
  }
  fill(el, h('h2', {}, 'Waiting for your decision'), requests, controls);
}

function renderSummary(el, page) {
  const info = page.info;
  const facts = [];
  if (info) {
    facts.push(['Model', info.model], ['Started', info.startedAt]);
    if (info.wallMs !== undefined) facts.push(['Wall time', seconds(info.wallMs)]);
  }
  for (const fact of page.costFacts) facts.push([fact.name, fact.value]);
  const total = page.usage.total;
  facts.push(
    ['Messages', String(page.timelineTotal)],
    ['Commits', String(page.commits.length)],
    ['Model calls', `${total.calls} (${total.promptTokens} + ${total.completionTokens} tokens)`],
  );
  const reason = page.status.reason ? h('span', { class: 'reason' }, page.status.reason) : null;
  fill(
    el,
    h('h1', {}, page.name, ' ', statusBadge(page.status)),
    info ? h('p', { class: 'spec' }, info.spec) : null,
    reason,
    h(
      'dl',
      { class: 'facts' },
      facts.map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]),
    ),
  );
}

function renderWarnings(el, warnings) {
  fill(
    el,
    ...(warnings.length === 0
      ? []
      : [
          h(
            'div',
            { class: 'warnings' },
            h('strong', {}, 'Parts of this run could not be read:'),
            h(
              'ul',
              {},
              warnings.map((w) => h('li', {}, w)),
            ),
          ),
        ]),
  );
}

/** Role and type filters over the timeline: entries are hidden, not removed, so live appends keep their place. */
function timelineToolbar(section) {
  const filter = { role: 'all', type: 'all' };
  const roleSelect = h('select', { id: 'timeline-role' }, h('option', { value: 'all' }, 'all'));
  const typeSelect = h('select', { id: 'timeline-type' }, h('option', { value: 'all' }, 'all'));
  const shownCount = h('span', { class: 'muted', role: 'status' });
  const apply = () => {
    const items = [...section.querySelectorAll('ol.timeline > li')];
    for (const li of items)
      li.hidden =
        (filter.role !== 'all' && li.dataset.from !== filter.role && li.dataset.to !== filter.role) ||
        (filter.type !== 'all' && li.dataset.type !== filter.type);
    const visible = items.filter((li) => !li.hidden).length;
    shownCount.textContent = visible === items.length ? '' : `${visible} of ${items.length} messages`;
  };
  /** New roles and types join the choices as messages arrive. */
  const learn = () => {
    for (const [select, values] of [
      [roleSelect, [...section.querySelectorAll('ol.timeline > li')].flatMap((li) => [li.dataset.from, li.dataset.to]).filter((v) => v !== 'all')],
      [typeSelect, [...section.querySelectorAll('ol.timeline > li')].map((li) => li.dataset.type)],
    ]) {
      const known = new Set([...select.options].map((o) => o.value));
      for (const v of [...new Set(values)].sort()) if (!known.has(v)) select.append(h('option', { value: v }, v));
    }
    apply();
  };
  roleSelect.addEventListener('change', () => {
    filter.role = roleSelect.value;
    apply();
  });
  typeSelect.addEventListener('change', () => {
    filter.type = typeSelect.value;
    apply();
  });
  const bar = h(
    'div',
    { class: 'toolbar' },
    h('label', { for: 'timeline-role' }, 'Role', roleSelect),
    h('label', { for: 'timeline-type' }, 'Type', typeSelect),
    shownCount,
  );
  bar.learn = learn;
  return bar;
}

function timelineEntry(entry) {
  const caused = entry.causedBy.length
    ? h(
        'p',
        {},
        'Caused by ',
        entry.causedBy.flatMap((id, i) => [i ? ', ' : '', h('a', { href: `#${id}` }, id)]),
      )
    : h('p', { class: 'muted' }, 'Caused by nothing earlier: the start of the run.');
  const details = h(
    'details',
    { dataset: { key: entry.id } },
    h(
      'summary',
      {},
      h('span', { class: 'seq' }, `#${entry.seq}`),
      h('span', { class: 'time' }, entry.offsetMs === null ? '' : `+${seconds(entry.offsetMs)}`),
      h('span', { class: 'who' }, roleChip(entry.from), ' → ', entry.to === 'all' ? h('span', { class: 'muted' }, 'all') : roleChip(entry.to)),
      h('span', { class: `type type-${entry.type}` }, entry.type),
      h('span', { class: 'text' }, entry.summary),
    ),
    h('div', { class: 'detail' }, caused, h('p', { class: 'muted' }, `${entry.id} · ${entry.createdAt}`)),
  );
  // The payload (a whole file, a report) is fetched when the message is opened.
  onDemand(
    details,
    async () => scrollable('pre', { class: 'payload' }, JSON.stringify((await getJson(`${runUrl(runName)}/messages/${entry.id}`)).payload, null, 2)),
    details.querySelector('.detail'),
  );
  return h('li', { class: 'message', id: entry.id, dataset: { seq: String(entry.seq), type: entry.type, from: entry.from, to: entry.to } }, details);
}

/** How many entries of a long list are drawn at a time; "Show more" draws the next lot. */
const PAGE_SIZE = 200;

/**
 * A list drawn a page at a time: `entries` is everything known so far; what is drawn grows by
 * PAGE_SIZE when the reader asks, and new entries join at once only when everything before them is shown.
 */
function pagedList(list, more, entries, draw, total = entries.length) {
  const limit = Number(list.dataset.limit ?? PAGE_SIZE);
  const shown = list.children.length;
  for (const entry of entries.slice(shown, Math.max(limit, shown))) list.append(draw(entry));
  const left = total - list.children.length;
  more.hidden = left <= 0;
  more.textContent = `Show ${Math.min(left, PAGE_SIZE)} more (${left} not shown)`;
}

function renderDocuments(el, documents) {
  if (documents.length === 0) return fill(el, h('p', { class: 'muted' }, 'No documents yet.'));
  fill(
    el,
    ...documents.flatMap((doc) =>
      doc.files.map((file) =>
        h(
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
            ' · commit ',
            commitRef(doc.commit),
            doc.story ? [' · ', h('a', { href: `#thread-${DOC_SUBJECT[doc.type] ?? doc.type}` }, 'its conversation')] : null,
          ),
          h('div', { class: 'markdown', html: file.html }),
        ),
      ),
    ),
  );
}

/** The conversation subject of each document type (see conversation.ts). */
const DOC_SUBJECT = { PRD: 'prd', Design: 'design', TaskGraph: 'tasks' };

const commitRef = (hash) => (hash ? h('a', { class: 'hash', href: `#commit-${hash}` }, short(hash)) : h('span', { class: 'muted' }, 'not committed yet'));

function reviewNotes(review, kind) {
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

function renderCode(el, files) {
  if (files.length === 0) return fill(el, h('p', { class: 'muted' }, 'No code yet.'));
  fill(
    el,
    ...files.map((file) => {
      const latest = file.versions.at(-1);
      const older = file.versions.slice(0, -1).reverse();
      return h(
        'details',
        { class: 'card code-file', id: `file-${file.path}`, dataset: { key: `code:${file.path}` } },
        h(
          'summary',
          {},
          h('code', {}, file.path),
          ' ',
          h('span', { class: 'muted' }, `${file.kind} · ${file.versions.length} version${file.versions.length === 1 ? '' : 's'}`),
          ' ',
          storyBadge(file.story, latest.review, file.kind),
        ),
        h(
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
            file.story ? ` · ${file.story} (` : null,
            file.story ? h('a', { href: `#thread-${file.path}` }, 'the conversation') : null,
            file.story ? ')' : null,
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
        ),
        older.map((v) =>
          h(
            'details',
            { class: 'older', dataset: { key: `code:${file.path}:${v.messageId}` } },
            h('summary', {}, `Earlier version (${v.messageId})`),
            reviewNotes(v.review, file.kind),
            v.diff ? h('details', { class: 'changes' }, h('summary', {}, 'What changed from the version before'), diffView(v.diff)) : null,
            scrollable('pre', { class: 'source' }, h('code', {}, v.content)),
          ),
        ),
      );
    }),
  );
}

/** What happened to a file, as its conversation tells it; the review verdict alone when there was none. */
function storyBadge(story, review, kind) {
  if (!story) return reviewBadge(review, kind);
  const bad = /left|rejected|not published/.test(story);
  return h('span', { class: `badge ${bad ? 'bad' : 'ok'}` }, story);
}

function reviewBadge(review, kind) {
  if (kind === 'test') return null;
  if (!review) return h('span', { class: 'badge' }, 'not reviewed');
  return review.approved ? h('span', { class: 'badge ok' }, 'approved') : h('span', { class: 'badge bad' }, `${review.issues.length} issues left`);
}

function renderTests(el, rounds) {
  if (rounds.length === 0) return fill(el, h('p', { class: 'muted' }, 'No QA round yet.'));
  fill(
    el,
    ...rounds.map((round) =>
      h(
        'div',
        { class: `card round ${round.passed ? 'passed' : 'failed'}`, dataset: { round: String(round.round) } },
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
      ),
    ),
  );
}

function usageTable(rows, total, costFields, first) {
  // Cost fields are recorded in US dollars (costUsd): shown as money, headed as a person would.
  const header = [first, 'calls', 'prompt tokens', 'completion tokens', 're-asks', ...costFields.map((c) => c.replace(/Usd$/, '').toLowerCase())];
  const cells = (r) => [
    r.name,
    count(r.calls),
    count(r.promptTokens),
    count(r.completionTokens),
    count(r.repairs),
    ...costFields.map((c) => (r.costs[c] === undefined ? '' : r.costs[c] === null ? 'unknown' : money(r.costs[c]))),
  ];
  return h(
    'table',
    { class: 'usage' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        header.map((c) => h('th', {}, c)),
      ),
    ),
    h(
      'tbody',
      {},
      [...rows, total].map((r) =>
        h(
          'tr',
          { class: r === total ? 'total' : '' },
          cells(r).map((c, i) => h('td', { class: i ? 'num' : '' }, String(c))),
        ),
      ),
    ),
  );
}

function renderUsage(el, usage) {
  fill(
    el,
    usage.source === 'exchanges' ? h('p', { class: 'muted' }, 'So far: summed from the model exchanges while the run goes on.') : null,
    usage.costFields.length === 0 ? h('p', { class: 'muted' }, 'This run recorded no cost; tokens are shown.') : null,
    h('h3', {}, 'Per role'),
    h('div', { class: 'chart', html: usage.charts.byRole }),
    usageTable(usage.byRole, usage.total, usage.costFields, 'role'),
    h('h3', {}, 'Per action'),
    h('div', { class: 'chart', html: usage.charts.byAction }),
    usageTable(usage.byAction, usage.total, usage.costFields, 'role / action'),
  );
}

const SVG = 'http://www.w3.org/2000/svg';
function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) el.setAttribute(k, String(v));
  for (const c of children.flat(Infinity)) if (c !== null && c !== undefined) el.append(typeof c === 'string' ? document.createTextNode(c) : c);
  return el;
}

/**
 * Model calls as bars on a time axis, one row per role — and a role's calls that overlapped (parallel
 * Engineers) side by side on rows of their own — then the tokens used so far, on the same axis.
 */
function renderActivity(el, exchanges) {
  const timed = exchanges.filter((x) => x.at !== null && !Number.isNaN(Date.parse(x.at)));
  if (timed.length === 0) return fill(el, h('p', { class: 'muted' }, 'No timed model calls yet.'));
  const t0 = Math.min(...timed.map((x) => Date.parse(x.at)));
  const span = Math.max(1, Math.max(...timed.map((x) => Date.parse(x.at) - t0 + (x.ms ?? 0))));
  const lanes = [];
  for (const x of timed) {
    const start = Date.parse(x.at) - t0;
    const end = start + Math.max(x.ms ?? 0, 1);
    let lane = lanes.find((l) => l.role === x.role && l.end <= start);
    if (!lane) lanes.push((lane = { role: x.role, n: lanes.filter((l) => l.role === x.role).length + 1, end: 0, bars: [] }));
    lane.end = end;
    lane.bars.push({ x, start, end });
  }
  lanes.sort((a, b) => a.role.localeCompare(b.role) || a.n - b.n);
  const W = 1000;
  const left = 170;
  const row = 18;
  const scale = (t) => left + ((W - left - 10) * t) / span;
  const hueOf = (role) => {
    let hash = 0;
    for (const c of role) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
    return hash % 360;
  };
  const gantt = svg(
    'svg',
    {
      viewBox: `0 0 ${W} ${lanes.length * row + 24}`,
      role: 'img',
      'aria-label': `Model calls over ${seconds(span)}: ${timed.length} calls on ${lanes.length} rows`,
      class: 'gantt',
    },
    lanes.map((lane, i) => [
      svg('text', { x: 4, y: i * row + 13, class: 'lane' }, lane.n === 1 ? lane.role : `${lane.role} (${lane.n})`),
      lane.bars.map(({ x, start, end }) =>
        svg(
          'rect',
          {
            x: scale(start),
            y: i * row + 3,
            width: Math.max(2, scale(end) - scale(start)),
            height: row - 6,
            rx: 2,
            fill: `hsl(${hueOf(x.role)} 55% 45%)`,
            class: x.ok ? 'bar' : 'bar invalid',
            'data-index': x.index,
          },
          svg(
            'title',
            {},
            `#${x.index + 1} ${x.role} ${x.action}${x.key ? ` ${x.key}` : ''}: +${seconds(start)}, ${x.ms === null ? '?' : seconds(x.ms)}, ${x.promptTokens + x.completionTokens} tokens`,
          ),
        ),
      ),
    ]),
    svg('text', { x: left, y: lanes.length * row + 18, class: 'axis' }, '0s'),
    svg('text', { x: W - 10, y: lanes.length * row + 18, class: 'axis', 'text-anchor': 'end' }, seconds(span)),
  );
  let total = 0;
  const points = [`${scale(0)},110`];
  for (const x of [...timed].sort((a, b) => Date.parse(a.at) + (a.ms ?? 0) - Date.parse(b.at) - (b.ms ?? 0))) {
    total += x.promptTokens + x.completionTokens;
    points.push({ t: Date.parse(x.at) - t0 + (x.ms ?? 0), total });
  }
  const line = points.map((p) => (typeof p === 'string' ? p : `${scale(p.t).toFixed(1)},${(110 - (100 * p.total) / Math.max(1, total)).toFixed(1)}`)).join(' ');
  const tokens = svg(
    'svg',
    { viewBox: `0 0 ${W} 130`, role: 'img', 'aria-label': `Tokens used over time: ${total.toLocaleString('en-US')} in all`, class: 'tokens-over-time' },
    svg('polyline', { points: line, fill: 'none', stroke: '#4e79a7', 'stroke-width': 2 }),
    svg('text', { x: 4, y: 14, class: 'lane' }, `${total.toLocaleString('en-US')} tokens`),
    svg('text', { x: 4, y: 110, class: 'lane' }, '0'),
    svg('text', { x: W - 10, y: 126, class: 'axis', 'text-anchor': 'end' }, seconds(span)),
  );
  fill(
    el,
    h('p', { class: 'muted' }, "Each bar is one model call (hover for what it was); a role's calls that ran at the same time get rows of their own."),
    h('div', { class: 'chart-frame', tabindex: '0', 'aria-label': 'model calls per role over time' }, gantt),
    h('h3', {}, 'Tokens used over time'),
    h('div', { class: 'chart-frame', tabindex: '0', 'aria-label': 'tokens over time' }, tokens),
  );
}

function renderRoles(el, roles) {
  if (roles.length === 0) return fill(el, h('p', { class: 'muted' }, 'No roles could be shown for this run.'));
  fill(
    el,
    h('p', { class: 'muted' }, 'Yellow: the state a role is in, or was last in. Green: states the run passed through (its model calls say so).'),
    h(
      'div',
      { class: 'roles-grid' },
      roles.map((role) =>
        h(
          'div',
          { class: 'card role-card', dataset: { role: role.id } },
          h('h3', {}, roleChip(role.id), ' ', role.title ?? ''),
          h(
            'p',
            {},
            role.watches.length ? `Watches ${role.watches.join(', ')}. ` : '',
            role.state
              ? [
                  role.status === 'active' ? 'Now in ' : 'Last in ',
                  h('strong', { class: 'state' }, role.state),
                  ` (${role.status}${role.updatedAt ? `, ${role.updatedAt}` : ''}).`,
                ]
              : h('span', { class: 'muted' }, 'No state recorded by this run.'),
          ),
          role.diagram ? diagram(role.diagram) : h('p', { class: 'muted' }, 'Its SOP could not be loaded (see the warnings above).'),
          (role.fileSops ?? []).map((sub) =>
            h(
              'details',
              { class: 'file-sop', open: true, dataset: { key: `file-sop:${role.id}:${sub.name}`, sop: sub.name } },
              h(
                'summary',
                {},
                `Per-file SOP ${sub.name}`,
                h('span', { class: 'muted' }, sub.visited.length ? ` · the run passed through ${sub.visited.join(', ')}` : ' · not run'),
              ),
              diagram(sub.diagram),
            ),
          ),
        ),
      ),
    ),
  );
}

/** Server-rendered and drawn blocks that may scroll (code in markdown, wide diagrams) join the tab order. */
function focusableScrollers(root) {
  for (const el of root.querySelectorAll('.markdown pre, .diagram-svg')) {
    if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '0');
  }
}

/** A block that scrolls on its own: reachable by keyboard (focusable), named for screen readers. */
function scrollable(tag, attrs, ...children) {
  return h(tag, { tabindex: '0', ...attrs }, ...children);
}

function diffView(text) {
  const pre = scrollable('pre', { class: 'diff', 'aria-label': 'diff' });
  for (const line of text.split('\n')) {
    const kind =
      line.startsWith('+++') || line.startsWith('---')
        ? 'file'
        : line.startsWith('+')
          ? 'add'
          : line.startsWith('-')
            ? 'del'
            : line.startsWith('@@')
              ? 'hunk'
              : line.startsWith('diff ')
                ? 'file'
                : '';
    pre.append(h('span', { class: kind }, line), '\n');
  }
  return pre;
}

/** A <details> whose body is fetched the first time it opens (into `into`, the details itself by default). */
function onDemand(details, load, into = details) {
  let loaded = false;
  details.addEventListener('toggle', async () => {
    if (!details.open || loaded) return;
    loaded = true;
    const body = h('div', { class: 'loading muted' }, 'Loading…');
    into.append(body);
    try {
      body.replaceWith(await load());
    } catch (error) {
      loaded = false;
      body.replaceWith(h('p', { class: 'error' }, error.message));
    }
  });
  return details;
}

// ---------------------------------------------------------------------------------------------------
// Conversations: fetched when the section is first opened, and again on changes while it is open.

const ENTRY_VERB = {
  draft: () => 'wrote the first draft',
  review: (e) =>
    e.approved === null ? 'reviewed it' : e.approved ? 'approved it' : `asked for changes (${e.issues.length} issue${e.issues.length === 1 ? '' : 's'})`,
  revision: () => 'revised it',
  fix: () => 'fixed it',
  published: () => 'published it',
  bug: () => 'reported a bug in it',
  decision: (e) => (e.approved ? 'approved it' : 'rejected it'),
};

function threadEntry(name, e) {
  const exchange =
    e.exchange === null
      ? null
      : onDemand(h('details', { class: 'exchange-link' }, h('summary', {}, `model exchange #${e.exchange + 1}`)), async () =>
          exchangeView(await getJson(`${runUrl(name)}/exchanges/${e.exchange}`)),
        );
  return h(
    'li',
    { class: `entry entry-${e.kind}`, dataset: { kind: e.kind } },
    h(
      'p',
      { class: 'entry-head' },
      roleChip(e.who),
      ' ',
      h('strong', {}, ENTRY_VERB[e.kind](e)),
      e.at ? h('span', { class: 'muted' }, ` · ${e.at}`) : null,
      e.messageId ? [' · ', h('a', { href: `#${e.messageId}` }, e.messageId)] : null,
    ),
    e.issues.length
      ? h(
          'ul',
          { class: 'issues' },
          e.issues.map((i) => h('li', {}, i)),
        )
      : null,
    e.text ? h('p', { class: 'entry-text' }, e.text) : null,
    e.diff ? h('details', { class: 'changes', open: true }, h('summary', {}, e.kind === 'fix' ? 'The fix' : 'The revision'), diffView(e.diff)) : null,
    exchange,
  );
}

function renderConversations(el, name, threads) {
  if (threads.length === 0) return fill(el, h('p', { class: 'muted' }, 'No conversation yet.'));
  fill(
    el,
    threads.map((t) =>
      h(
        'details',
        { class: 'card thread', id: `thread-${t.subject}`, dataset: { key: `thread:${t.subject}`, subject: t.subject } },
        h('summary', {}, h('code', {}, t.subject), ' ', h('span', { class: `badge ${/left|rejected|not published/.test(t.status) ? 'bad' : 'ok'}` }, t.status)),
        h(
          'ol',
          { class: 'thread-entries' },
          t.entries.map((e) => threadEntry(name, e)),
        ),
      ),
    ),
  );
}

function appendCommits(list, name, commits) {
  const shown = new Set([...list.children].map((li) => li.dataset.hash));
  for (const c of commits) {
    if (shown.has(c.hash)) continue;
    const details = h(
      'details',
      {},
      h(
        'summary',
        {},
        h('span', { class: 'hash' }, short(c.hash)),
        ' ',
        h('span', { class: 'subject' }, c.subject),
        ' ',
        h('span', { class: 'muted' }, `${c.author} · ${c.files.length} file${c.files.length === 1 ? '' : 's'}`),
      ),
      c.messageId ? h('p', { class: 'muted' }, 'Committed for ', h('a', { href: `#${c.messageId}` }, c.messageId)) : null,
    );
    onDemand(details, async () => diffView((await getJson(`${runUrl(name)}/commits/${c.hash}`)).diff));
    list.append(h('li', { id: `commit-${c.hash}`, dataset: { hash: c.hash } }, details));
  }
}

function exchangeView(x) {
  return h(
    'div',
    { class: 'exchange-body' },
    x.messages.map((m) =>
      h(
        'div',
        { class: `chat ${m.role}` },
        h('div', { class: 'chat-role' }, m.role === 'assistant' ? 'earlier reply' : m.role),
        scrollable('pre', {}, m.content),
      ),
    ),
    h('div', { class: 'chat reply' }, h('div', { class: 'chat-role' }, `reply${x.finishReason ? ` (${x.finishReason})` : ''}`), scrollable('pre', {}, x.reply)),
    x.error ? h('p', { class: 'error' }, `Rejected: ${x.error}`) : null,
  );
}

function exchangeItem(name, x) {
  const details = h(
    'details',
    {},
    h(
      'summary',
      {},
      h('span', { class: 'seq' }, `#${x.index + 1}`),
      roleChip(x.role),
      h('span', { class: 'action' }, x.action),
      x.key ? h('code', {}, x.key) : null,
      x.attempt > 1 ? h('span', { class: 'badge' }, `re-ask ${x.attempt - 1}`) : null,
      h('span', { class: `badge ${x.ok ? 'ok' : 'bad'}` }, x.ok ? 'valid' : 'invalid'),
      h('span', { class: 'muted' }, `${x.promptTokens} → ${x.completionTokens} tokens${x.ms === null ? '' : ` · ${seconds(x.ms)}`}`),
    ),
  );
  onDemand(details, async () => exchangeView(await getJson(`${runUrl(name)}/exchanges/${x.index}`)));
  return h('li', { class: 'exchange', id: `exchange-${x.index}`, dataset: { index: String(x.index) } }, details);
}

/** Redraws a section only when its data changed, keeping open whatever the reader had opened. */
function renderIfChanged(memory, key, el, data, render) {
  const text = JSON.stringify(data);
  if (memory.get(key) === text) return;
  memory.set(key, text);
  const open = new Set([...el.querySelectorAll('details[open][data-key]')].map((d) => d.dataset.key));
  const closed = new Set([...el.querySelectorAll('details:not([open])[data-key]')].map((d) => d.dataset.key));
  render(el, data);
  for (const d of el.querySelectorAll('details[data-key]')) {
    if (open.has(d.dataset.key)) d.open = true;
    else if (closed.has(d.dataset.key)) d.open = false;
  }
}

/** The run this page shows (set by showRun). */
let runName = null;

async function showRun(name) {
  runName = name;
  document.title = `${name} · sopworks`;
  fill(crumbs, h('a', { href: '/' }, 'runs'), ' / ', h('span', {}, name));
  let view = null;
  let memory = new Map();
  let status = null;
  let connected = false;
  /** The run's own event stream once the run exists; until then, the list's stream tells when it appears. */
  let events = null;
  let waitingFor = null;

  const showLive = () => {
    live.hidden = false;
    const following = connected && status !== null;
    const running = following && status.running;
    live.className = `live ${running ? 'on' : ''}`;
    live.textContent = !connected
      ? 'not following (reconnecting…)'
      : status === null
        ? 'waiting for the run'
        : running
          ? '● live'
          : status.finished
            ? 'finished'
            : 'stopped';
  };

  const follow = () => {
    waitingFor?.close();
    waitingFor = null;
    if (events) return;
    events = new EventSource(`${runUrl(name)}/events`);
    events.addEventListener('open', () => {
      connected = true;
      showLive();
    });
    events.addEventListener('error', () => {
      connected = false;
      showLive();
    });
    // The stream's first event also asks for a load.
    events.addEventListener('change', refresh);
  };

  /** The run is not there (yet, or any more, while a `--force` re-run replaces it): wait for it to appear. */
  const waitForRun = (error) => {
    events?.close();
    events = null;
    view = null;
    known = null;
    status = null;
    fill(
      app,
      h(
        'section',
        { class: 'waiting', role: 'status' },
        h('h1', {}, `Waiting for the run “${name}”`),
        h('p', {}, error.message),
        h('p', { class: 'muted' }, 'This page starts following the run as soon as it appears in the folder. ', h('a', { href: '/' }, 'All runs')),
      ),
    );
    if (!waitingFor) {
      waitingFor = new EventSource('/api/events');
      waitingFor.addEventListener('open', () => {
        connected = true;
        showLive();
      });
      waitingFor.addEventListener('error', () => {
        connected = false;
        showLive();
      });
      waitingFor.addEventListener('change', refresh);
    }
    showLive();
  };

  /** The conversations, fetched only while their section is open. */
  const loadConversations = async () => {
    const { threads, toggle } = view.sections.conversations;
    if (!threads.hasChildNodes()) threads.append(h('p', { class: 'loading muted' }, 'Loading…'));
    try {
      const answer = await getJson(`${runUrl(name)}/conversations`);
      renderIfChanged(memory, 'conversations', threads, answer.threads, (el, data) => renderConversations(el, name, data));
    } catch (error) {
      memory.delete('conversations');
      fill(threads, h('p', { class: 'error' }, error.message));
    }
    toggle.dataset.loaded = 'true';
  };
  /**
   * A link to one message, file, exchange or conversation thread opens what it points at (loading the
   * conversations first if need be) — so such a link can be shared.
   */
  const showTarget = async () => {
    if (!view || location.hash.length < 2) return;
    const id = decodeURIComponent(location.hash.slice(1));
    if (id.startsWith('thread-')) {
      const { toggle } = view.sections.conversations;
      if (!toggle.open) {
        toggle.open = true;
        await loadConversations();
      }
    }
    const exchange = /^exchange-(\d+)$/.exec(id);
    if (exchange) {
      const { toggle, list } = view.sections.exchanges;
      list.dataset.limit = String(Math.max(Number(list.dataset.limit ?? PAGE_SIZE), Number(exchange[1]) + 1));
      toggle.open = true;
      await loadExchanges();
    }
    const message = known?.timeline.findIndex((m) => m.id === id) ?? -1;
    if (message >= 0) {
      const list = view.sections.timeline.querySelector('ol.timeline');
      if (message >= list.children.length) {
        list.dataset.limit = String(message + 1);
        pagedList(list, view.sections.timeline.more, known.timeline, timelineEntry);
        view.sections.timeline.querySelector('.toolbar').learn();
      }
    }
    const target = document.getElementById(id);
    if (!target) return;
    const details = target.matches('details') ? target : target.querySelector(':scope > details');
    if (details) details.open = true;
    target.closest('li')?.removeAttribute('hidden');
    target.scrollIntoView();
  };
  window.addEventListener('hashchange', showTarget);
  let targetShown = false;
  /** Whether this browser holds the token that lets it decide (asked once). */
  const session = getJson('/api/session').catch(() => ({ canDecide: false }));

  /** Everything known of the run, merged from the server's answers (each carries only what changed). */
  let known = null;
  /** Exchange summaries fetched so far (in pages, while their section is open). */
  let exchangeSummaries = [];

  /** One load at a time: a toggle and a followed link may both ask, and pages must not be fetched twice. */
  let exchangesLoading = Promise.resolve();
  const loadExchanges = (all = false) =>
    (exchangesLoading = exchangesLoading
      .then(() => loadExchangePages(all))
      .catch((error) => fill(view.sections.exchanges.list, h('li', { class: 'error' }, error.message))));
  const loadExchangePages = async (all) => {
    const { list, more } = view.sections.exchanges;
    const want = all ? known.exchangeCount : Math.max(Number(list.dataset.limit ?? PAGE_SIZE), list.children.length);
    while (exchangeSummaries.length < Math.min(want, known.exchangeCount)) {
      const answer = await getJson(`${runUrl(name)}/exchanges?from=${exchangeSummaries.length}&limit=${all ? 5000 : PAGE_SIZE}`);
      if (answer.items.length === 0) break;
      exchangeSummaries.push(...answer.items);
    }
    if (view.sections.exchanges.toggle.open) pagedList(list, more, exchangeSummaries, (x) => exchangeItem(name, x), known.exchangeCount);
  };
  const loadActivity = async () => {
    await loadExchanges(true);
    renderIfChanged(memory, 'activity', view.sections.activity.body, exchangeSummaries, renderActivity);
  };

  const refresh = oneAtATime(async () => {
    let delta;
    try {
      const query =
        known === null
          ? ''
          : `?identity=${encodeURIComponent(known.identity)}&timelineFrom=${known.timeline.length}&have=${encodeURIComponent(
              Object.entries(known.versions)
                .map(([k, v]) => `${k}.${v}`)
                .join(','),
            )}`;
      delta = await getJson(`${runUrl(name)}${query}`);
    } catch (error) {
      if (error instanceof ServerError && error.status === 404) {
        known = null;
        return waitForRun(error);
      }
      // Anything else may pass (a file caught mid-write, a restarted server): say it, and try again on the next change.
      view = null;
      known = null;
      showError(error);
      return;
    }
    follow();
    // A re-run under the same name replaces everything shown, rather than appending to the old run.
    if (view === null || known === null || known.identity !== delta.identity) {
      view = runSkeleton();
      memory = new Map();
      known = { timeline: [] };
      exchangeSummaries = [];
      const { conversations, exchanges, activity, timeline } = view.sections;
      conversations.toggle.addEventListener('toggle', () => conversations.toggle.open && void loadConversations());
      exchanges.toggle.addEventListener('toggle', () => exchanges.toggle.open && void loadExchanges());
      exchanges.more.addEventListener('click', () => {
        exchanges.list.dataset.limit = String(exchanges.list.children.length + PAGE_SIZE);
        void loadExchanges();
      });
      activity.toggle.addEventListener('toggle', () => activity.toggle.open && void loadActivity());
      timeline.more.addEventListener('click', () => {
        const list = timeline.querySelector('ol.timeline');
        list.dataset.limit = String(list.children.length + PAGE_SIZE);
        pagedList(list, timeline.more, known.timeline, timelineEntry);
        timeline.querySelector('.toolbar').learn();
      });
    }
    const { timeline: newMessages, timelineFrom, ...sections } = delta;
    known = { ...known, ...sections, timeline: [...known.timeline.slice(0, timelineFrom), ...newMessages] };
    const page = known;
    status = page.status;
    renderSummary(view.summary, page);
    renderIfChanged(memory, 'warnings', view.warnings, page.warnings, renderWarnings);
    const decision = { pending: page.pending, running: page.status.running, canDecide: (await session).canDecide, dir: page.dir ?? name };
    renderIfChanged(memory, 'decision', view.decision, decision, (el, d) => renderDecision(el, view.decided, name, d));
    pagedList(view.sections.timeline.querySelector('ol.timeline'), view.sections.timeline.more, page.timeline, timelineEntry);
    view.sections.timeline.querySelector('.toolbar').learn();
    renderIfChanged(memory, 'documents', view.sections.documents, page.documents, renderDocuments);
    renderIfChanged(memory, 'code', view.sections.code, page.code, renderCode);
    renderIfChanged(memory, 'tests', view.sections.tests, page.tests, renderTests);
    renderIfChanged(memory, 'usage', view.sections.usage, page.usage, renderUsage);
    renderIfChanged(memory, 'roles', view.sections.roles, page.roles, renderRoles);
    appendCommits(view.sections.commits.firstChild, name, page.commits);
    // Drawn and readable: what a reader needs first is on screen (the diagrams follow).
    document.body.dataset.shownVersion = String(Number(document.body.dataset.shownVersion ?? 0) + 1);
    if (view.sections.exchanges.toggle.open) await loadExchanges();
    if (view.sections.activity.toggle.open) await loadActivity();
    if (view.sections.conversations.toggle.open) await loadConversations();
    showLive();
    await drawDiagrams(app);
    focusableScrollers(app);
    // A shared link is followed once the run is drawn.
    if (!targetShown) {
      targetShown = true;
      await showTarget();
    }
    document.body.dataset.loadedVersion = String(Number(document.body.dataset.loadedVersion ?? 0) + 1);
  });

  // The run's stream starts once the run is found (a run not there yet is waited for instead).
  refresh();
}

async function route() {
  const match = /^\/runs\/([^/]+)\/?$/.exec(location.pathname);
  try {
    if (match) await showRun(decodeURIComponent(match[1]));
    else await showRuns();
  } catch (error) {
    showError(error);
  }
}

route();
