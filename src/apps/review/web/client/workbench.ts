/**
 * The run's workbench: what each role is working on now, how a run this viewer started is going, and
 * what a person can do next from the page — continue a stopped run, or request a change of a
 * finished one. Both are POSTs the server checks (token, Origin, Host); without the token the page
 * says what to type in a terminal instead.
 */
import type { ChangeAnswer, LaunchView, ResumeAnswer, RoleView, RunStatus } from '../../server/api-types.ts';
import { postJson, runUrl } from './api.ts';
import { roleChip } from './badges.ts';
import { fill, h, messageOf } from './dom.ts';
import { humanTime, isoTitle } from './format.ts';
import { terminalHint } from './terminal-hint.ts';

export interface WorkbenchData {
  name: string;
  dir: string;
  status: RunStatus;
  roles: Pick<RoleView, 'id' | 'state' | 'status' | 'step'>[];
  launch: LaunchView | null;
  canDecide: boolean;
  /** Whether a decision is waiting (the decision area offers it then). */
  pending: boolean;
}

/** The step of every role, in one line: while the run works, "now"; once stopped, where each was. */
function nowWorking(data: WorkbenchData): HTMLElement | null {
  const { phase } = data.status.phase;
  const starting = data.launch?.state === 'starting';
  if (phase === 'done' || data.roles.length === 0) return null;
  const title = phase === 'running' ? 'Now working on' : starting ? 'Starting again from' : 'Where each role stopped';
  const step = (r: WorkbenchData['roles'][number]) => r.step ?? r.state ?? 'no step recorded yet';
  return h(
    'p',
    { class: 'now-working', dataset: { live: String(phase === 'running') } },
    h('strong', {}, `${title}: `),
    data.roles.map((r, i) =>
      h('span', { class: 'now-role', dataset: { role: r.id } }, i ? ' · ' : '', roleChip(r.id), ' ', h('span', { class: 'step' }, step(r))),
    ),
  );
}

const COMMAND_WORDS: Record<LaunchView['command'], string> = { resume: 'Continued', change: 'Change started' };

/** How the run this viewer started is going: its state, its last progress lines, its end or its error. */
function launchView(launch: LaunchView): HTMLElement {
  const state =
    launch.state === 'ended'
      ? launch.error
        ? 'it stopped with an error'
        : `it ended: ${launch.outcome ?? 'no outcome'}${launch.reason ? ` (${launch.reason})` : ''}`
      : launch.state === 'starting'
        ? 'starting…'
        : 'at work';
  return h(
    'div',
    { class: `launch launch-${launch.state}`, role: 'status', dataset: { state: launch.state, command: launch.command } },
    h(
      'p',
      {},
      h('strong', {}, `${COMMAND_WORDS[launch.command]} by this viewer `),
      h('time', { datetime: launch.startedAt, title: isoTitle(launch.startedAt) }, humanTime(launch.startedAt)),
      `: ${state}.`,
    ),
    launch.error ? h('p', { class: 'error' }, launch.error.message) : null,
    launch.error?.hint ? h('pre', { class: 'hint' }, launch.error.hint) : null,
    launch.progress.length
      ? h(
          'ol',
          { class: 'progress', 'aria-label': 'its progress, newest last' },
          launch.progress.slice(-8).map((line) => h('li', {}, line)),
        )
      : null,
  );
}

/** A form with one text field and one button that POSTs it; `done` shows the answer. */
function actionForm<T>(opts: {
  id: string;
  label: string;
  button: string;
  url: string;
  field: string;
  rows: number;
  required: boolean;
  done: (answer: T) => void;
}): HTMLFormElement {
  const text = h('textarea', { id: opts.id, name: opts.field, rows: String(opts.rows) });
  const problem = h('p', { class: 'error', role: 'alert' });
  const button = h('button', { type: 'submit' }, opts.button);
  const form = h(
    'form',
    { class: 'decide action', dataset: { action: opts.id } },
    h('label', { for: opts.id }, opts.label),
    text,
    h('div', { class: 'buttons' }, button),
    problem,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    problem.textContent = '';
    const value = text.value.trim();
    if (opts.required && value === '') {
      problem.textContent = 'Say what to do first.';
      text.focus();
      return;
    }
    button.disabled = true;
    try {
      opts.done(await postJson<T>(opts.url, { [opts.field]: value || null }, 'nothing was started'));
    } catch (error) {
      problem.textContent = messageOf(error);
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

function actions(data: WorkbenchData): HTMLElement | null {
  const { phase } = data.status;
  if (data.pending || data.launch?.state === 'starting' || data.launch?.state === 'running' || data.status.running) return null;
  if (phase.continuable) {
    const controls = data.canDecide
      ? actionForm<ResumeAnswer>({
          id: 'resume-hint',
          label: 'Guidance for the step that failed (optional; only a step whose replies kept failing reads it)',
          button: 'Continue the run',
          url: `${runUrl(data.name)}/resume`,
          field: 'hint',
          rows: 2,
          required: false,
          done: () => {},
        })
      : terminalHint('do it', `sopworks resume ${data.dir}`);
    return h('section', { class: 'workbench-action', 'aria-label': 'Continue' }, h('h2', {}, `Continue the run (${phase.label})`), controls);
  }
  if (phase.phase !== 'done' && phase.phase !== 'failed') return null;
  const controls = data.canDecide
    ? actionForm<ChangeAnswer>({
        id: 'change-request',
        label: 'What should change? The change is made on a new branch, in a run of its own beside this one.',
        button: 'Start the change',
        url: `${runUrl(data.name)}/change`,
        field: 'request',
        rows: 3,
        required: true,
        done: (answer) => {
          if (answer.run) location.assign(`/runs/${encodeURIComponent(answer.run)}`);
        },
      })
    : terminalHint('do it', `sopworks change ${data.dir} "…"`);
  return h('section', { class: 'workbench-action', 'aria-label': 'Request a change' }, h('h2', {}, 'Request a change'), controls);
}

export function renderWorkbench(el: HTMLElement, data: WorkbenchData): void {
  // What a person was typing survives a redraw (the run moved on while they typed).
  const typed = new Map([...el.querySelectorAll('textarea')].map((t) => [t.id, t.value]));
  const focused = document.activeElement instanceof HTMLTextAreaElement && el.contains(document.activeElement) ? document.activeElement.id : null;
  fill(el, nowWorking(data), data.launch ? launchView(data.launch) : null, actions(data));
  for (const t of el.querySelectorAll('textarea')) t.value = typed.get(t.id) ?? t.value;
  if (focused) document.getElementById(focused)?.focus();
}
