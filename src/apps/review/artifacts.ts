/**
 * The artifacts of a run — what each message added to the repository — recomputed from the board
 * with the same renderers that wrote them, so the review shows exactly what was committed (or kept in
 * the run folder). Pure.
 */

import { messageTypes } from '../../company/index.ts';
import type { Message, ProjectFile } from '../../engine/board/index.ts';
import { boardBefore } from './board-replay.ts';

export interface Artifact {
  message: Message;
  files: ProjectFile[];
  /** False for a document the run keeps in its folder (`.sopworks/documents/`), never on the branch: a change's, by default. */
  onBranch: boolean;
}

export function artifactsOf(messages: readonly Message[], warnings: string[] = []): Artifact[] {
  const artifacts: Artifact[] = [];
  for (const message of messages) {
    const type = messageTypes[message.type];
    if (!type?.files) continue;
    try {
      const before = boardBefore(messages, message.seq);
      artifacts.push({ message, files: type.files(message.payload, before), onBranch: type.committed?.(message.payload, before) ?? true });
    } catch (error) {
      warnings.push(`${message.id} (${message.type}): its files could not be rendered: ${(error as Error).message}.`);
    }
  }
  return artifacts;
}
