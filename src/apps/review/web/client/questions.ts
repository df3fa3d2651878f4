/** The questions a stopped run waits for answers to (`--clarify`), and the form that answers them (with the token). */
import type { AnswersAnswer, OpenQuestions } from '../../server/api-types.ts';
import { postJson, runUrl } from './api.ts';
import { whatThen, whileSending } from './continued.ts';
import { fill, h } from './dom.ts';
import { terminalHint } from './terminal-hint.ts';

function answersForm(name: string, request: OpenQuestions, resultEl: HTMLElement): HTMLFormElement {
  const id = (i: number) => `answer-${request.role}-${request.round}-${i}`;
  const fields = request.questions.map((_, i) => h('textarea', { id: id(i), name: `answer-${i}`, rows: '2' }));
  const problem = h('p', { class: 'error', role: 'alert' });
  const send = async () => {
    problem.textContent = '';
    await whileSending(form, problem, async () => {
      const body = { role: request.role, round: request.round, answers: fields.map((f) => f.value.trim()) };
      const answer = await postJson<AnswersAnswer>(`${runUrl(name)}/answers`, body, 'nothing was answered');
      fill(resultEl, h('p', { class: 'review ok' }, `Sent the ${answer.answered}. Recorded on the board`, whatThen(answer)));
    });
  };
  const form = h(
    'form',
    {
      class: 'decide answers',
      onsubmit: (event: Event) => {
        event.preventDefault();
        void send();
      },
    },
    // The questions are a model's text: set as text, never as HTML.
    request.questions.map((q, i) => [h('label', { for: id(i) }, `${i + 1}. ${q.question}`), q.why ? h('p', { class: 'muted why' }, q.why) : null, fields[i]]),
    h('p', { class: 'muted' }, 'Leave an answer empty for "no preference".'),
    h('div', { class: 'buttons' }, h('button', { type: 'submit', class: 'approve' }, 'Send the answers')),
    problem,
  );
  return form;
}

export interface QuestionsData {
  questions: OpenQuestions[];
  running: boolean;
  canDecide: boolean;
  dir: string;
}

/** Each role's open questions, with a form to answer them (or how to, without the token). */
export function questionsArea(name: string, resultEl: HTMLElement, data: QuestionsData): HTMLElement[] {
  return data.questions.map((request) =>
    h(
      'div',
      { class: 'card request questions', dataset: { key: `questions:${request.role}:${request.round}` } },
      h('h3', {}, `${request.role} asks before it writes`),
      data.running
        ? h('p', { class: 'muted' }, 'The run is still at work; answer once it has stopped.')
        : data.canDecide
          ? answersForm(name, request, resultEl)
          : terminalHint('answer', `sopworks resume ${data.dir}`),
    ),
  );
}
