/** `awaitFile`: wait until the current file's Code is on the board (or the run ends first). */
import { z } from 'zod';
import type * as S from '../../documents/index.ts';
import { defineStep } from '../../engine/steps/index.ts';
import { SopworksError } from '../../ground/errors.ts';

export const awaitFile = defineStep({
  description:
    "Wait until the current file's Code is on the board (written and reviewed), e.g. to test a file as soon as it is " +
    'finished while others are still being written. Fails if the run reaches an outcome first.',
  params: z.object({}).strict(),
  output: z.void(),
  async run({ context, signal }, ports) {
    const file = context.current;
    if (!file)
      throw new SopworksError('SOP_INVALID', `${ports.role.profile.id}: awaitFile needs a current file (run it in a per-file SOP, or after nextTask).`);
    const { board } = ports;
    const written = (message: { type: string; payload: unknown }) => message.type === 'Code' && (message.payload as S.Code).path === file;
    if (board.all('Code').some(written)) return;
    const outcome = board.latest<S.Outcome>('Outcome');
    if (outcome) throw runEnded(file, outcome.payload);
    await new Promise<void>((resolve, reject) => {
      const done = (settle: () => void) => {
        unsubscribe();
        signal.removeEventListener('abort', onAbort);
        settle();
      };
      const unsubscribe = board.subscribe((message) => {
        if (written(message)) done(resolve);
        else if (message.type === 'Outcome') done(() => reject(runEnded(file, message.payload as S.Outcome)));
      });
      const onAbort = () => done(() => reject(signal.reason));
      signal.addEventListener('abort', onAbort, { once: true });
    });
  },
});

const runEnded = (file: string, outcome: S.Outcome): SopworksError =>
  new SopworksError('RUN_ENDED', `the run reached its outcome (${outcome.outcome}: ${outcome.reason}) before ${file} was written`);
