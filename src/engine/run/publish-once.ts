/**
 * A role's n-th message is posted once: a step re-run after a restore gets the one on the board
 * (src/engine/effect-identity.ts). The step goes on once the message is on the board (durable); its
 * commit follows in the background, and is made on resume if a crash comes first.
 */
import type { Message, MessageBoard } from '../board/index.ts';
import { earlierMessage } from '../effect-identity.ts';
import type { Publish } from '../steps/index.ts';
import type { WorkInFlight } from './work-in-flight.ts';

export const publishOnce =
  (board: MessageBoard, workInFlight: WorkInFlight): Publish =>
  (draft, nth, onPosted) =>
    workInFlight.track(async () => {
      const message: Message = earlierMessage(board.list(), draft, nth) ?? (await board.post(draft));
      onPosted?.(message);
      return message;
    });
