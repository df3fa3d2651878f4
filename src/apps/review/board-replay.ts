/** Read access to a recorded board as it stood before a given message: what renderers combine. */
import type { BoardReader, Message } from '../../engine/board/index.ts';

export function boardBefore(messages: readonly Message[], seq: number): BoardReader {
  const earlier = messages.filter((m) => m.seq < seq);
  return {
    latest: <T>(type: string) => earlier.findLast((m) => m.type === type) as Message<T> | undefined,
    all: <T>(type: string) => earlier.filter((m) => m.type === type) as Message<T>[],
  };
}
