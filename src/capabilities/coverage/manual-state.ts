/**
 * The manual checks of a run, read from the board: for each criterion QA declared manual (its latest
 * ManualChecks entry), the review's latest verdict — counted only when given after that declaration and
 * after the last change to any file it read, so a file the Engineer fixed is looked at again. Pure over
 * the board: the same board gives the same states, on resume and on a replay.
 */
import type { ManualCheckState, ManualChecks, ManualVerdicts } from '../../documents/index.ts';
import type { BoardReader } from '../../engine/board/index.ts';

/** The files a run wrote, newest version of each, with the position on the board of that version. */
export function latestFiles(board: BoardReader): Map<string, { content: string; seq: number; changed: number[] | null }> {
  const files = new Map<string, { content: string; seq: number; changed: number[] | null }>();
  for (const m of board.all<{ path: string; content: string; changed?: number[] | null }>('Code')) {
    files.set(m.payload.path, { content: m.payload.content, seq: m.seq, changed: m.payload.changed ?? null });
  }
  return files;
}

export function manualStates(board: BoardReader): Map<string, ManualCheckState> {
  const declared = new Map<string, { check: ManualChecks['checks'][number]; seq: number }>();
  for (const m of board.all<ManualChecks>('ManualChecks')) for (const check of m.payload.checks) declared.set(check.id, { check, seq: m.seq });
  const verdicts = new Map<string, { verdict: ManualVerdicts['verdicts'][number]; seq: number }>();
  for (const m of board.all<ManualVerdicts>('ManualVerdicts')) for (const verdict of m.payload.verdicts) verdicts.set(verdict.id, { verdict, seq: m.seq });
  const files = latestFiles(board);
  const states = new Map<string, ManualCheckState>();
  for (const [id, { check, seq }] of declared) {
    const given = verdicts.get(id);
    const changedSince = (after: number) => check.artifacts.some((path) => (files.get(path)?.seq ?? 0) > after);
    const current = given && given.seq > seq && !changedSince(given.seq) ? given.verdict : null;
    states.set(id, {
      reason: check.reason,
      artifacts: check.artifacts,
      lookFor: check.lookFor,
      verdict: current?.verdict ?? null,
      verdictReason: current?.reason ?? null,
    });
  }
  return states;
}

/** The criteria a review last found testable: QA may not declare them manual again. */
export function foundTestable(board: BoardReader): Set<string> {
  const last = new Map<string, string>();
  for (const m of board.all<ManualVerdicts>('ManualVerdicts')) for (const v of m.payload.verdicts) last.set(v.id, v.verdict);
  return new Set([...last].filter(([, verdict]) => verdict === 'testable').map(([id]) => id));
}
