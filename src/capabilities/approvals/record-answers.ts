/**
 * Records a person's answers to the questions a stopped run waits on (`--clarify`): an `Answers`
 * message posted on the run's board by the client — the record a terminal's answers make too — and the
 * question taken off the waiting list. Holds the run's lock while it writes, so it never races a run in
 * progress. An empty answer means "no preference".
 */
import path from 'node:path';
import { MessageBoard } from '../../engine/board/index.ts';
import { FileRunStore } from '../../engine/run/index.ts';
import { SopworksError } from '../../ground/errors.ts';
import { answersMessage, parseWaiting, type QuestionsRequest, questionsOf } from './approval-desk.ts';
import { Answers } from './message-types.ts';

/** Which questions are answered: a role's round of questions, as the page was shown them. */
export interface GivenAnswers {
  role: string;
  round: number;
  answers: readonly string[];
}

export async function recordAnswers(stateDir: string, given: GivenAnswers): Promise<QuestionsRequest> {
  const store = FileRunStore.of(path.dirname(stateDir));
  const lock = await store.lock();
  try {
    const waiting = parseWaiting(await store.readWaiting());
    const request = questionsOf(waiting).find((r) => r.role === given.role && r.round === given.round);
    if (!request) {
      throw new SopworksError('USAGE', `Nothing in ${path.dirname(stateDir)} waits for answers to ${given.role}'s questions (round ${given.round + 1}).`, {
        hint: 'They may have been answered already; reload the page to see what the run waits for now.',
      });
    }
    if (given.answers.length !== request.questions.length) {
      throw new SopworksError('USAGE', `${given.role} asked ${request.questions.length} question(s), and ${given.answers.length} answer(s) came.`, {
        hint: 'Give one answer per question, in order; leave one empty for "no preference".',
      });
    }
    // The board takes only what is posted here: answers.
    const opened = await store.openBoard();
    const board = MessageBoard.restore(opened.records, opened.log, store.file('board.jsonl'), { types: { Answers } });
    try {
      await board.post(answersMessage(request, given.answers));
    } finally {
      await board.close();
    }
    await store.writeWaiting(waiting.filter((r) => r !== request));
    return request;
  } finally {
    await lock.release();
  }
}
