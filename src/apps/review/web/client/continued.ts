/** What a write from the page (a decision, answers) says last: the run goes on, or how to continue it. */
import type { ErrorAnswer, LaunchView } from '../../server/api-types.ts';
import { h, messageOf } from './dom.ts';

export const whatThen = (answer: { launch: LaunchView | null; launchError: ErrorAnswer | null; next: string }) =>
  answer.launch
    ? '; the run goes on: this viewer continued it.'
    : [`, but the run could not be continued from here: ${answer.launchError?.error ?? 'no reason given'} Continue it with `, h('code', {}, answer.next), '.'];

/** Runs a form's write with its buttons off; what went wrong goes to its problem line. */
export async function whileSending(form: HTMLFormElement, problem: HTMLElement, write: () => Promise<void>): Promise<void> {
  for (const b of form.querySelectorAll('button')) b.disabled = true;
  try {
    await write();
  } catch (error) {
    problem.textContent = messageOf(error);
  } finally {
    for (const b of form.querySelectorAll('button')) b.disabled = false;
  }
}
