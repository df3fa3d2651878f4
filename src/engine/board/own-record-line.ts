/**
 * Tells sopworks' own appends to the run's record from lines generated code might add while its tests
 * run (integrity.ts): a board line is sopworks' own when it is, byte for byte, a message the in-memory
 * board holds (a message being posted is written just before it joins the list: the check looks again
 * a moment later before it drops a line). The exchange log cannot be told apart this way (its lines are written by the model gateway as
 * replies arrive); its lines are accepted, a gap the docs list for the modes in which code can reach it.
 */

import type { AcceptLine } from '../../host/sandbox/index.ts';
import type { MessageBoard } from './message-board.ts';

export function ownRecordLine(board: Pick<MessageBoard, 'list'>): AcceptLine {
  return (relative, line) => {
    if (relative !== '.sopworks/board.jsonl') return true;
    let parsed: { id?: unknown; seq?: unknown };
    try {
      parsed = JSON.parse(line) as { id?: unknown; seq?: unknown };
    } catch {
      return false;
    }
    const known = board.list().find((m) => m.id === parsed.id);
    return known !== undefined && JSON.stringify(known) === line;
  };
}
