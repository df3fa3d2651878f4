/**
 * Whether a stopped run can be continued, and what to tell a person when it cannot. A run whose SOP
 * itself concluded `failed` — a file rejected too often, a review loop, QA rounds used up — or
 * `criteria-unmet` (a P0 acceptance criterion still unproven when its rounds were spent) posted that
 * outcome on the board, which is append-only and the run's source of truth: resumed, every role would
 * be restored past the step that concluded and the run would end with the same outcome at once. So
 * `resume` does not pretend to continue it; it says why, and what does help.
 */
import path from 'node:path';
import { z } from 'zod';
import { SopworksError } from '../../ground/errors.ts';
import { readAppendLog } from '../../ground/files/index.ts';
import { cleanLine } from '../../ground/terminal-text.ts';
import { type Message, Outcome } from '../board/index.ts';
import { STATE_DIR } from './state-dir.ts';

const PostedOutcome = z.object({
  type: z.literal('Outcome'),
  from: z.string(),
  payload: Outcome,
});
type PostedOutcome = z.infer<typeof PostedOutcome>;

/** The first outcome a role's SOP posted (it stands), or null. */
export function concludedOutcome(messages: readonly Pick<Message, 'type'>[]): PostedOutcome | null {
  for (const message of messages) {
    const parsed = PostedOutcome.safeParse(message);
    if (parsed.success) return parsed.data;
  }
  return null;
}

/** What to say instead of "continue it with resume", for a run whose SOP concluded it failed or its criteria unmet; null when resume helps. */
export function whyNotContinuable(messages: readonly Pick<Message, 'type'>[]): string | null {
  const posted = concludedOutcome(messages);
  if (!posted || posted.payload.outcome === 'done') return null;
  const what = posted.payload.outcome === 'failed' ? 'the run failed' : 'the run delivered with criteria unmet';
  return `The ${posted.from}'s SOP concluded ${what} (${posted.payload.reason}): its own bound was reached, and a resumed run would end the same way at once.`;
}

/** What does help such a run: a new run, with what made the SOP give up changed. */
export const INSTEAD =
  'Start a new run (`sopworks run`) with a stronger model (--model), a clearer spec, or the SOP bound or prompt template changed (`sopworks sop validate` checks an edit).';

/** A change run's record names its repository and branch (run.json `change`, written by `sopworks change`). */
const ChangeOfRecord = z.object({ repo: z.string().min(1), branch: z.string().min(1) });

/** The command that starts afresh: `sopworks change <repo>` for a change run, `sopworks run` otherwise. */
export function startAfresh(record: object | null): string {
  const change = ChangeOfRecord.safeParse((record as { change?: unknown } | null)?.change);
  return change.success
    ? `\`sopworks change ${change.data.repo} "<request>"\` (a new branch; ${change.data.branch} keeps this one, or pass --force to start it again)`
    : '`sopworks run`';
}

/** INSTEAD, for a change run or a new project. */
export const insteadFor = (record: object | null): string =>
  ChangeOfRecord.safeParse((record as { change?: unknown } | null)?.change).success
    ? INSTEAD.replace('`sopworks run`', startAfresh(record)).replace('a clearer spec', 'a clearer request')
    : INSTEAD;

/** Why a run cannot be continued, and what helps instead. */
export interface NotContinuable {
  why: string;
  instead: string;
}

/** Why resume cannot continue the run on this board, and what helps; null when it can. */
export type ContinuationAdvice = (messages: readonly Message[], record: object | null) => NotContinuable | null;

/** The SOP's own bound was reached: a new run with what made it give up changed. */
export const adviceOfBound: ContinuationAdvice = (messages, record) => {
  const why = whyNotContinuable(messages);
  return why ? { why, instead: insteadFor(record) } : null;
};

/**
 * Refuses, before anything is written, to resume a run its SOP concluded failed, saying why and what helps
 * — as `advise` reads the board: the company knows causes the engine does not (a change's base that could
 * not run here is this machine's environment, and no stronger model helps it).
 */
export async function checkContinuable(projectDir: string, record: object | null = null, advise: ContinuationAdvice = adviceOfBound): Promise<void> {
  const { records } = await readAppendLog(path.join(projectDir, STATE_DIR, 'board.jsonl'));
  const advice = advise(records as Message[], record);
  if (advice) throw new SopworksError('NOT_RESUMABLE', `${projectDir} cannot be continued. ${advice.why}`, { hint: advice.instead });
}

/** The reasons of a run whose step failed on the model's replies: the steps `resume` asks again. */
const FAILED_ON_REPLIES = /still invalid after \d+ attempts|gave the same reply to .* twice in a row|kept stopping at the output limit/;

/** `--hint` reaches only a step that failed on the model's replies; refused otherwise, rather than ignored. */
export function checkHintApplies(record: { outcome?: string | undefined; reason?: string | undefined }): void {
  if (record.outcome === 'failed' && FAILED_ON_REPLIES.test(record.reason ?? '')) return;
  throw new SopworksError(
    'USAGE',
    `--hint is for a run that stopped because a step's replies kept failing (invalid, looping, or cut off); this run's last outcome is ${record.outcome ?? 'none (it was cut off)'}${record.reason ? ` (${cleanLine(record.reason)})` : ''}.`,
    { hint: 'Resume without --hint; the run goes on from where it stopped.' },
  );
}
