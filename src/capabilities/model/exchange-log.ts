/**
 * The exchange log (`.sopworks/exchanges.jsonl`): one record per attempt of every model call. It is how a
 * resumed run avoids paying twice — a call whose attempts are recorded is answered from here — and the
 * durable source of the usage report. Unlike the board it is flushed to the disk when the run ends, not
 * line by line: a killed process loses none of it, and what a power cut loses costs at most those
 * calls again on resume, never a wrong result (the board, flushed line by line, is the source of truth).
 */

import { callIdentity, seriesIdentity } from '../../engine/effect-identity.ts';
import type { RecordLog } from '../../ground/files/index.ts';
import { CutOffAllowance, type CutOffLimits } from './cut-off-allowance.ts';
import { ExchangeRecord } from './exchange-record.ts';
import type { CallMeta } from './provider.ts';
import { UsageMeter } from './usage.ts';

/**
 * Recorded attempts of each call. A call's attempts form rounds: a round starts at attempt 1, and a
 * call asked again after a restart starts a new one (its attempts numbered from 1 again, after the old
 * ones in the log). Only the last round of a call is ever replayed — and not when it ended in failure
 * with every attempt used: replayed, those failed answers would fail the step again identically, for
 * free, whatever model the resumed run has. They stay in the log for the record; the model is asked.
 */
export class ExchangeReplay {
  private readonly lastRound = new Map<string, ExchangeRecord[]>();

  constructor(readonly records: readonly ExchangeRecord[]) {
    for (const record of records) {
      const id = callIdentity(record, record.occurrence);
      const round = this.lastRound.get(id);
      if (round && record.attempt > round.at(-1)!.attempt) round.push(record);
      else this.lastRound.set(id, [record]);
    }
  }

  static parse(raw: readonly unknown[]): ExchangeReplay {
    return new ExchangeReplay(
      raw.flatMap((r) => {
        const parsed = ExchangeRecord.safeParse(r);
        return parsed.success ? [parsed.data] : [];
      }),
    );
  }

  /**
   * The attempts to answer a call from, in order: its last recorded round — unless that round failed
   * the step (all `allowed` attempts spent, or its cut-off replies used up the step's allowance), when the
   * call is asked again from attempt 1.
   * A round cut short (a crash between re-asks, one after a reply cut off at the output limit too) is
   * replayed and then carried on.
   */
  round(call: CallMeta, occurrence: number, allowed: number, cutOff: CutOffLimits | null = null): readonly ExchangeRecord[] {
    const round = this.recorded(call, occurrence);
    const failed = round.length > 0 && round.every((r) => !r.ok) && (round.length >= allowed || allowanceUsedUp(round, cutOff));
    return failed ? [] : round;
  }

  /** The last recorded round of a call as it is, failed or not. */
  recorded(call: CallMeta, occurrence: number): readonly ExchangeRecord[] {
    return this.lastRound.get(callIdentity(call, occurrence)) ?? [];
  }

  /** Provider calls already made per {role, action, key}: what a scripted provider has used up. */
  callsPerCall(): Map<string, number> {
    const counts = new Map<string, number>();
    // A reply that repeated the script's last one (after an injected fault) used nothing up.
    for (const r of this.records) {
      if (r.reusedReply) continue;
      const id = seriesIdentity(r);
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return counts;
  }
}

/**
 * Whether a round's cut-off replies left no room for another request (cut-off-allowance.ts): a step
 * that ended so failed before its attempts did. A provider that never cuts off (no limits) has none.
 */
function allowanceUsedUp(round: readonly ExchangeRecord[], limits: CutOffLimits | null): boolean {
  if (limits === null || round.at(-1)?.finishReason !== 'length') return false;
  const allowance = new CutOffAllowance(limits);
  for (const r of round) allowance.record({ finishReason: r.finishReason ?? null, continuations: r.continuations ?? 0 }, r.usage.completionTokens);
  return !allowance.roomForAnother;
}

/**
 * The run's exchange log as this process writes it: appends go to the file, and the records — those read
 * when the run (re)started and those written since — stay at hand, so the end of a run does not read the
 * whole log back (it holds every prompt) to report usage.
 */
export class ExchangeJournal {
  private readonly written: ExchangeRecord[] = [];

  constructor(
    private readonly log: RecordLog,
    private readonly earlier: readonly ExchangeRecord[],
  ) {}

  /** Written before it resolves (a step goes on only once its exchange would survive the process). */
  async append(record: ExchangeRecord): Promise<void> {
    await this.log.append(record);
    this.written.push(record);
  }

  /** Every record of the run, oldest first. */
  records(): ExchangeRecord[] {
    return [...this.earlier, ...this.written];
  }

  close(): Promise<void> {
    return this.log.close();
  }
}

/** Usage per logical call (its attempts summed) from the log: the report survives restarts. */
export function usageFromExchanges(records: readonly ExchangeRecord[]): UsageMeter {
  const meter = new UsageMeter();
  const calls = new Map<string, ExchangeRecord[]>();
  for (const r of records) {
    const id = callIdentity(r, r.occurrence);
    calls.set(id, [...(calls.get(id) ?? []), r]);
  }
  for (const attempts of calls.values()) {
    const first = attempts[0]!;
    const last = attempts.at(-1)!;
    meter.record({
      role: first.role,
      action: first.action,
      key: first.key,
      promptTokens: attempts.reduce((n, a) => n + a.usage.promptTokens, 0),
      completionTokens: attempts.reduce((n, a) => n + a.usage.completionTokens, 0),
      ...(attempts.some((a) => a.usage.cachedPromptTokens !== undefined)
        ? { cachedPromptTokens: attempts.reduce((n, a) => n + (a.usage.cachedPromptTokens ?? 0), 0) }
        : {}),
      counted: attempts.some((a) => a.usageCounted),
      repairs: repairsIn(attempts),
      retries: attempts.reduce((n, a) => n + a.retries, 0),
      costUsd: attempts.reduce<number | null>((n, a) => (n === null || a.costUsd === null ? null : n + a.costUsd), 0),
      ms: attempts.reduce((n, a) => n + a.ms, 0),
      ok: last.ok,
      ...(last.model !== undefined ? { model: last.model } : {}),
    });
  }
  return meter;
}

/** Re-asks of one call: each model's answers after its first (a model that could not answer made none). */
function repairsIn(attempts: readonly ExchangeRecord[]): number {
  const perModel = new Map<string, number>();
  for (const a of attempts) if (!a.unavailable) perModel.set(a.model ?? '', (perModel.get(a.model ?? '') ?? 0) + 1);
  return [...perModel.values()].reduce((n, count) => n + count - 1, 0);
}
