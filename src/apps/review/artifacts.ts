/**
 * The artifacts of a run — what each message added to the repository — recomputed from the board
 * with the same renderers that wrote them, so the review shows exactly what was committed. Pure.
 */

import { messageTypes } from '../../company/index.ts';
import type { Message, ProjectFile } from '../../engine/board/index.ts';
import { boardBefore } from './board-replay.ts';

export interface Artifact {
  message: Message;
  files: ProjectFile[];
}

export function artifactsOf(messages: readonly Message[], warnings: string[] = []): Artifact[] {
  const artifacts: Artifact[] = [];
  for (const message of messages) {
    const toFiles = messageTypes[message.type]?.files;
    if (!toFiles) continue;
    try {
      artifacts.push({ message, files: toFiles(message.payload, boardBefore(messages, message.seq)) });
    } catch (error) {
      warnings.push(`${message.id} (${message.type}): its files could not be rendered: ${(error as Error).message}.`);
    }
  }
  return artifacts;
}
