/**
 * Tells sopworks' own appends to the run's record from lines generated code might add while its tests
 * run (integrity.ts): a board line is sopworks' own when it is, byte for byte, a message the in-memory
 * board holds — or the one being posted right now (the line is written before the message joins the
 * list). The exchange log cannot be told apart this way (its lines are written by the model gateway as
 * replies arrive); its lines are accepted, a gap the docs list for the modes in which code can reach it.
 */
import type { MessageBoard } from '../board/MessageBoard.ts';
import type { AcceptLine } from './integrity.ts';

export function ownRecordLine(board: Pick<MessageBoard, 'list'>): AcceptLine {
  return (relative, line) => {
    if (relative !== '.sopworks/board.jsonl') return true;
    let parsed: { id?: unknown; seq?: unknown };
    try {
      parsed = JSON.parse(line) as { id?: unknown; seq?: unknown };
    } catch {
      return false;
    }
    const messages = board.list();
    const known = messages.find((m) => m.id === parsed.id);
    if (known) return JSON.stringify(known) === line;
    return parsed.seq === messages.length + 1;
  };
}
