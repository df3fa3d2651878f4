/** What a stopped run waits for a person to decide or answer, and the forms that do (with the token). */
import type { DecisionAnswer, OpenQuestions, PendingDecision } from '../../server/api-types.ts';
import { postJson, runUrl } from './api.ts';
import { whatThen, whileSending } from './continued.ts';
import { fill, h } from './dom.ts';
import { questionsArea } from './questions.ts';
import { terminalHint } from './terminal-hint.ts';

export interface DecisionData {
  pending: PendingDecision[];
  /** Questions it waits for answers to (`--clarify`). */
  questions: OpenQuestions[];
  running: boolean;
  canDecide: boolean;
  dir: string;
}

const what = (r: PendingDecision) => `the ${r.gate}${r.key ? ` ${r.key}` : ''} of ${r.role}`;

/**
 * The decision's form: kept in reach at the bottom of the screen while the person reads what they decide
 * on (sticky within the decision area), so its buttons are never a long scroll away.
 */
function decisionForm(name: string, resultEl: HTMLElement, what: string): HTMLFormElement {
  const feedback = h('textarea', { id: 'decision-feedback', name: 'feedback', rows: '2' });
  const problem = h('p', { class: 'error', role: 'alert' });
  const send = async (approved: boolean) => {
    problem.textContent = '';
    if (!approved && feedback.value.trim() === '') {
      problem.textContent = 'Say what should change: a rejection needs feedback.';
      feedback.focus();
      return;
    }
    await whileSending(form, problem, async () => {
      const body = { approved, feedback: feedback.value.trim() || null };
      const answer = await postJson<DecisionAnswer>(`${runUrl(name)}/decision`, body, 'nothing was decided');
      const decided = `${approved ? 'Approved' : 'Rejected'} ${answer.decided.map((d) => d.what).join(', ')}. Recorded on the board`;
      fill(resultEl, h('p', { class: approved ? 'review ok' : 'review bad' }, decided, whatThen(answer)));
    });
  };
  const form = h(
    'form',
    { class: 'decide in-reach', 'aria-label': `Decide: ${what}`, onsubmit: (event: Event) => event.preventDefault() },
    h('label', { for: 'decision-feedback' }, `${what} Feedback for the role (needed to reject):`),
    feedback,
    h(
      'div',
      { class: 'buttons' },
      h('button', { type: 'button', class: 'approve', onclick: () => send(true) }, 'Approve'),
      h('button', { type: 'button', class: 'reject', onclick: () => send(false) }, 'Reject with feedback'),
    ),
    problem,
  );
  return form;
}

export function renderDecision(el: HTMLElement, resultEl: HTMLElement, name: string, data: DecisionData): void {
  const questions = data.questions.length > 0 ? [h('h2', {}, 'Waiting for your answers'), questionsArea(name, resultEl, data)] : [];
  if (data.pending.length === 0) {
    fill(el, questions);
    return;
  }
  const requests = data.pending.map((r) =>
    h(
      'details',
      { class: 'card request', open: true, dataset: { key: `request:${r.role}:${r.gate}:${r.key}:${r.round}` } },
      h('summary', {}, `Approve ${what(r)}?`),
      h('div', { class: 'markdown', html: r.html }),
    ),
  );
  const asked = `Approve ${data.pending.map(what).join(' and ')}?`;
  const controls = data.running
    ? h('p', { class: 'muted' }, 'The run is still at work; decide once it has stopped.')
    : data.canDecide
      ? decisionForm(name, resultEl, asked)
      : terminalHint('decide', `sopworks approve ${data.dir}`);
  fill(el, questions, h('h2', {}, 'Waiting for your decision'), requests, controls);
}
