/**
 * One run's page: drawn from the server's answers, each carrying only what changed since the last
 * (page-delta.ts), and redrawn when the run's event stream says the run changed. A run not there yet
 * (or replaced by a `--force` re-run) is waited for; long lists are drawn a page at a time; the
 * heavy sections load when opened; a link to one thing opens it.
 */
import type {
  ExchangeSummary,
  ExchangesAnswer,
  LaunchView,
  RunPage,
  RunPageAnswer,
  RunRelations,
  RunStatus,
  SessionAnswer,
  Thread,
} from '../../server/api-types.ts';
import { renderActivity } from './activity-view.ts';
import { getJson, runUrl, ServerError } from './api.ts';
import { renderCode, renderDocuments, renderTests } from './artifacts-view.ts';
import { liveText, showError } from './badges.ts';
import { renderChange } from './change-view.ts';
import { appendCommits, renderConversations } from './conversations-view.ts';
import { renderCoverage } from './coverage-view.ts';
import { renderDecision } from './decision.ts';
import { drawDiagrams } from './diagrams.ts';
import { fill, focusableScrollers, h, messageOf, oneAtATime, renderIfChanged } from './dom.ts';
import { exchangeItem } from './exchanges-view.ts';
import { renderRoles } from './roles-view.ts';
import { type RunSkeleton, runSkeleton } from './run-skeleton.ts';
import { renderSummary, renderWarnings } from './summary.ts';
import { PAGE_SIZE, pagedList, timelineEntry } from './timeline.ts';
import { renderUsage } from './usage-view.ts';
import { renderWorkbench } from './workbench.ts';

/** Everything known of the run, merged from the server's answers. */
type KnownPage = RunPage & Partial<RunRelations> & { identity: string; versions: Record<string, string>; timelineTotal: number; launch: LaunchView | null };

/** Counts a page's redraws on <body>, so a test (or a person) can tell when it has drawn. */
const bump = (key: 'shownVersion' | 'loadedVersion') => (document.body.dataset[key] = String(Number(document.body.dataset[key] ?? 0) + 1));

export class RunView {
  private view: RunSkeleton | null = null;
  private memory = new Map<string, string>();
  private known: KnownPage | null = null;
  private status: RunStatus | null = null;
  private launch: LaunchView | null = null;
  /** The run's stream: not opened yet, open, or lost (the browser retries on its own). */
  private connection: 'connecting' | 'open' | 'lost' = 'connecting';
  /** The run's own event stream once the run exists; until then, the list's stream tells when it appears. */
  private events: EventSource | null = null;
  private waitingFor: EventSource | null = null;
  /** Exchange summaries fetched so far (in pages, while their section is open). */
  private exchangeSummaries: ExchangeSummary[] = [];
  /** One load at a time: a toggle and a followed link may both ask, and pages must not be fetched twice. */
  private exchangesLoading: Promise<void> = Promise.resolve();
  private targetShown = false;
  /** Whether this browser holds the token that lets it decide (asked once). */
  private readonly session = getJson<SessionAnswer>('/api/session').catch((): SessionAnswer => ({ canDecide: false }));
  readonly refresh = oneAtATime(() => this.load());

  constructor(
    private readonly app: HTMLElement,
    private readonly live: HTMLElement,
    private readonly name: string,
  ) {}

  start(crumbs: HTMLElement): void {
    document.title = `${this.name} · sopworks`;
    fill(crumbs, h('a', { href: '/' }, 'runs'), ' / ', h('span', {}, this.name));
    window.addEventListener('hashchange', () => void this.showTarget());
    // The run's stream starts once the run is found (a run not there yet is waited for instead).
    void this.refresh();
  }

  private showLive(): void {
    const { live, status, connection } = this;
    live.hidden = false;
    const running = connection === 'open' && status !== null && status.running;
    live.className = `live ${running ? 'on' : ''}`;
    // The badge's state, said again where the header can be seen from anywhere on the page; a stream not
    // opened yet is connecting (a page just loaded), one that was open and dropped is reconnecting.
    live.textContent =
      connection === 'connecting'
        ? 'connecting…'
        : connection === 'lost'
          ? 'not following (reconnecting…)'
          : status === null
            ? 'waiting for the run'
            : liveText(status, this.launch);
  }

  private stream(url: string): EventSource {
    this.connection = 'connecting';
    const source = new EventSource(url);
    source.addEventListener('open', () => {
      this.connection = 'open';
      this.showLive();
    });
    source.addEventListener('error', () => {
      this.connection = 'lost';
      this.showLive();
    });
    // The stream's first event also asks for a load.
    source.addEventListener('change', () => void this.refresh());
    return source;
  }

  private follow(): void {
    this.waitingFor?.close();
    this.waitingFor = null;
    this.events ??= this.stream(`${runUrl(this.name)}/events`);
  }

  /** The run is not there (yet, or any more, while a `--force` re-run replaces it): wait for it to appear. */
  private waitForRun(error: Error): void {
    this.events?.close();
    this.events = null;
    this.view = null;
    this.known = null;
    this.status = null;
    fill(
      this.app,
      h(
        'section',
        { class: 'waiting', role: 'status' },
        h('h1', {}, `Waiting for the run “${this.name}”`),
        h('p', {}, error.message),
        h('p', { class: 'muted' }, 'This page starts following the run as soon as it appears in the folder. ', h('a', { href: '/' }, 'All runs')),
      ),
    );
    this.waitingFor ??= this.stream('/api/events');
    this.showLive();
  }

  /** The conversations, fetched only while their section is open. */
  private async loadConversations(): Promise<void> {
    if (!this.view) return;
    const { body, toggle } = this.view.conversations;
    if (!body.hasChildNodes()) body.append(h('p', { class: 'loading muted' }, 'Loading…'));
    try {
      const answer = await getJson<{ threads: Thread[] }>(`${runUrl(this.name)}/conversations`);
      renderIfChanged(this.memory, 'conversations', body, answer.threads, (el, data) => renderConversations(el, this.name, data));
    } catch (error) {
      this.memory.delete('conversations');
      fill(body, h('p', { class: 'error' }, messageOf(error)));
    }
    toggle.dataset.loaded = 'true';
  }

  private loadExchanges(all = false): Promise<void> {
    this.exchangesLoading = this.exchangesLoading
      .then(() => this.loadExchangePages(all))
      .catch((error) => {
        if (this.view) fill(this.view.exchanges.body, h('li', { class: 'error' }, messageOf(error)));
      });
    return this.exchangesLoading;
  }

  private async loadExchangePages(all: boolean): Promise<void> {
    const { view, known } = this;
    if (!view || !known) return;
    const { body: list, more, toggle } = view.exchanges;
    const want = all ? known.exchangeCount : Math.max(Number(list.dataset.limit ?? PAGE_SIZE), list.children.length);
    while (this.exchangeSummaries.length < Math.min(want, known.exchangeCount)) {
      const answer = await getJson<ExchangesAnswer>(`${runUrl(this.name)}/exchanges?from=${this.exchangeSummaries.length}&limit=${all ? 5000 : PAGE_SIZE}`);
      if (answer.items.length === 0) break;
      this.exchangeSummaries.push(...answer.items);
    }
    if (toggle.open) pagedList(list, more, this.exchangeSummaries, (x) => exchangeItem(this.name, x), known.exchangeCount);
  }

  private async loadActivity(): Promise<void> {
    await this.loadExchanges(true);
    if (this.view) renderIfChanged(this.memory, 'activity', this.view.activity.body, this.exchangeSummaries, renderActivity);
  }

  private drawTimeline(): void {
    if (!this.view || !this.known) return;
    const { list, more, toolbar } = this.view.timeline;
    pagedList(list, more, this.known.timeline, (entry) => timelineEntry(this.name, entry));
    toolbar.learn();
  }

  /**
   * A link to one message, file, exchange or conversation thread opens what it points at (loading the
   * conversations first if need be) — so such a link can be shared.
   */
  private async showTarget(): Promise<void> {
    const { view } = this;
    if (!view || location.hash.length < 2) return;
    const id = decodeURIComponent(location.hash.slice(1));
    if (id.startsWith('thread-') && !view.conversations.toggle.open) {
      view.conversations.toggle.open = true;
      await this.loadConversations();
    }
    const exchange = /^exchange-(\d+)$/.exec(id);
    if (exchange) {
      const { body: list, toggle } = view.exchanges;
      list.dataset.limit = String(Math.max(Number(list.dataset.limit ?? PAGE_SIZE), Number(exchange[1]) + 1));
      toggle.open = true;
      await this.loadExchanges();
    }
    const message = this.known?.timeline.findIndex((m) => m.id === id) ?? -1;
    if (message >= view.timeline.list.children.length) {
      view.timeline.list.dataset.limit = String(message + 1);
      this.drawTimeline();
    }
    const target = document.getElementById(id);
    if (!target) return;
    const details = target instanceof HTMLDetailsElement ? target : target.querySelector<HTMLDetailsElement>(':scope > details');
    if (details) details.open = true;
    target.closest('li')?.removeAttribute('hidden');
    target.scrollIntoView();
  }

  /** A fresh frame for the run, its sections wired to load when opened. */
  private rebuild(): RunSkeleton {
    const view = runSkeleton(this.app, this.name);
    this.memory = new Map();
    this.exchangeSummaries = [];
    const { conversations, exchanges, activity, timeline } = view;
    conversations.toggle.addEventListener('toggle', () => conversations.toggle.open && void this.loadConversations());
    exchanges.toggle.addEventListener('toggle', () => exchanges.toggle.open && void this.loadExchanges());
    exchanges.more.addEventListener('click', () => {
      exchanges.body.dataset.limit = String(exchanges.body.children.length + PAGE_SIZE);
      void this.loadExchanges();
    });
    activity.toggle.addEventListener('toggle', () => activity.toggle.open && void this.loadActivity());
    timeline.more.addEventListener('click', () => {
      timeline.list.dataset.limit = String(timeline.list.children.length + PAGE_SIZE);
      this.drawTimeline();
    });
    return view;
  }

  /** Asks for what changed since the page's last answer; null when the page shows something else instead. */
  private async fetchDelta(): Promise<RunPageAnswer | null> {
    const known = this.known;
    const have = known
      ? `?identity=${encodeURIComponent(known.identity)}&timelineFrom=${known.timeline.length}&have=${encodeURIComponent(
          Object.entries(known.versions)
            .map(([k, v]) => `${k}.${v}`)
            .join(','),
        )}`
      : '';
    try {
      return await getJson<RunPageAnswer>(`${runUrl(this.name)}${have}`);
    } catch (error) {
      this.known = null;
      if (error instanceof ServerError && error.status === 404) this.waitForRun(error);
      else {
        // Anything else may pass (a file caught mid-write, a restarted server): say it, and try again on the next change.
        this.view = null;
        showError(this.app, error);
      }
      return null;
    }
  }

  private merge(delta: RunPageAnswer): KnownPage {
    const { timeline, timelineFrom, ...sections } = delta;
    // A re-run under the same name replaces everything shown, rather than appending to the old run.
    const fresh = this.view === null || this.known === null || this.known.identity !== delta.identity;
    if (fresh) this.view = this.rebuild();
    const before = fresh || !this.known ? [] : this.known.timeline.slice(0, timelineFrom);
    this.known = { ...(fresh ? {} : this.known), ...sections, timeline: [...before, ...timeline] } as KnownPage;
    return this.known;
  }

  private async render(view: RunSkeleton, page: KnownPage): Promise<void> {
    const { memory } = this;
    this.status = page.status;
    this.launch = page.launch ?? null;
    const canDecide = (await this.session).canDecide;
    renderSummary(view.summary, page, this.launch);
    renderIfChanged(memory, 'warnings', view.warnings, page.warnings, renderWarnings);
    const roles = page.roles.map(({ id, state, status, step }) => ({ id, state, status, step }));
    const waiting = page.pending.length > 0 || page.questions.length > 0;
    const bench = { name: this.name, dir: page.dir, status: page.status, roles, launch: this.launch, canDecide, pending: waiting };
    renderIfChanged(memory, 'workbench', view.workbench, bench, renderWorkbench);
    const starting = this.launch !== null && this.launch.state !== 'ended';
    const decision = { pending: page.pending, questions: page.questions, running: page.status.running || starting, canDecide, dir: page.dir ?? this.name };
    renderIfChanged(memory, 'decision', view.decision, decision, (el, d) => renderDecision(el, view.decided, this.name, d));
    const relations = { changeBase: page.changeBase ?? null, changes: page.changes ?? [] };
    renderIfChanged(memory, 'change', view.change.body, { change: page.change ?? null, relations }, (el, d) => renderChange(view.change.section, el, d));
    this.drawTimeline();
    renderIfChanged(memory, 'documents', view.documents, page.documents, renderDocuments);
    renderIfChanged(memory, 'code', view.code, page.code, renderCode);
    renderIfChanged(memory, 'criteria', view.criteria, page.coverage ?? null, renderCoverage);
    renderIfChanged(memory, 'tests', view.tests, page.tests, renderTests);
    renderIfChanged(memory, 'usage', view.usage, page.usage, renderUsage);
    renderIfChanged(memory, 'roles', view.roles, page.roles, renderRoles);
    appendCommits(view.commits, this.name, page.commits);
  }

  private async load(): Promise<void> {
    const delta = await this.fetchDelta();
    if (!delta) return;
    this.follow();
    const page = this.merge(delta);
    const view = this.view!;
    await this.render(view, page);
    // Drawn and readable: what a reader needs first is on screen (the diagrams follow).
    bump('shownVersion');
    if (view.exchanges.toggle.open) await this.loadExchanges();
    if (view.activity.toggle.open) await this.loadActivity();
    if (view.conversations.toggle.open) await this.loadConversations();
    this.showLive();
    await drawDiagrams(this.app);
    focusableScrollers(this.app);
    // A shared link is followed once the run is drawn.
    if (!this.targetShown) {
      this.targetShown = true;
      await this.showTarget();
    }
    bump('loadedVersion');
  }
}
