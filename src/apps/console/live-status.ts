/**
 * The live status line at the bottom of a terminal while a run goes on: how long the run has taken, the
 * tokens and cost so far, and each step under way — a model call with its phase (reading the prompt,
 * writing, waiting for the server), the tokens written and their rate, or a test round — redrawn every
 * second, so a reply that takes twenty minutes on a CPU shows that it is alive. Only on a terminal, and
 * only while a step is under way (a question asked at the terminal is never drawn over): piped output
 * gets the progress lines alone (and `--json` the events). Every line written while it shows clears it
 * first and draws it again after; it is cut to the terminal's width with "…", the totals first. A resumed
 * run's totals and time are the whole run's: its start event says what its earlier processes used.
 */
import pc from 'picocolors';
import { type CallMeta, formatUsd, type ProgressReport } from '../../capabilities/model/index.ts';
import type { RunEvent } from '../../company/index.ts';
import { cleanLine } from '../../ground/terminal-text.ts';
import type { Lines as Output } from '../../session/index.ts';
import { fitLine } from './fit-line.ts';

const REDRAW_MS = 1000;

interface Step {
  label: string;
  /** A model call's latest progress report, when its provider streams one. */
  report: ProgressReport | null;
  /** When the step began or its report came, to count the time on between reports. */
  at: number;
}

export class LiveStatus {
  private readonly steps = new Map<string, Step>();
  private drawn = false;
  private readonly timer: NodeJS.Timeout;
  private startedAt: number;
  private tokens = 0;
  /** The cost so far: null once a call's price was unknown; undefined until a call (or an earlier process) told it. */
  private costUsd: number | null | undefined = undefined;

  private constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly now: () => number,
  ) {
    this.startedAt = now();
    this.timer = setInterval(() => this.draw(), REDRAW_MS);
    this.timer.unref();
  }

  /** A status line for `stream` when it is a terminal; null otherwise. */
  static forTerminal(stream: NodeJS.WriteStream = process.stdout, now: () => number = Date.now): LiveStatus | null {
    return stream.isTTY ? new LiveStatus(stream, now) : null;
  }

  /** `io` with every line written above the status line. */
  wrap(io: Output): Output {
    return { out: (line) => this.around(() => io.out(line)), err: (line) => this.around(() => io.err(line)) };
  }

  /** A run event: a step begins or ends, a call reports its progress or what it used. */
  observe(event: RunEvent): void {
    if (event.kind === 'start' && event.earlier) {
      // A resumed run: its totals are the whole run's, its earlier processes' included.
      this.tokens += event.earlier.tokens;
      this.costUsd = addCost(this.costUsd, event.earlier.costUsd);
      this.startedAt -= event.earlier.wallMs;
      return;
    }
    if (event.kind === 'tests-start') this.begin(`tests\u0000${event.role}`, `${event.role} tests ${event.detail}`);
    else if (event.kind === 'tests-end') this.steps.delete(`tests\u0000${event.role}`);
    else if (event.kind === 'model') {
      const e = event.event;
      const key = keyOf(e.call);
      if (e.kind === 'call-start') this.begin(key, `${e.call.role} ${e.call.action}${e.call.key ? ` ${e.call.key}` : ''}`);
      else if (e.kind === 'call-progress') {
        const step = this.steps.get(key);
        if (step) Object.assign(step, { report: e.progress, at: this.now() });
      } else if (e.kind === 'call-end') {
        this.steps.delete(key);
        this.tokens += e.record.promptTokens + e.record.completionTokens;
        this.costUsd = addCost(this.costUsd, e.record.costUsd);
      } else return;
    } else return;
    this.draw();
  }

  /** Clears the line and stops redrawing it. */
  close(): void {
    clearInterval(this.timer);
    this.steps.clear();
    this.clear();
  }

  /** The status text: the run's time, tokens and cost so far, then each step under way, the longest-running first. */
  text(width: number = this.stream.columns || 100): string {
    const now = this.now();
    // No cost before the first reply: whether the model has a price is known only then.
    const cost = this.costUsd === undefined ? '' : ` · cost ${formatUsd(this.costUsd)}`;
    const totals = `${clock(now - this.startedAt)} · ${this.tokens.toLocaleString('en-US')} tokens${cost}`;
    const steps = [...this.steps.values()]
      .map((step) => ({ step, elapsed: step.report ? step.report.elapsedMs + (now - step.at) : now - step.at }))
      .sort((a, b) => b.elapsed - a.elapsed)
      .map(({ step, elapsed }) => (step.report ? `${step.label}: ${describeProgress(step.report, elapsed)}` : `${step.label} ${clock(elapsed)}`));
    // One column spare: a line that fills the last column makes some terminals wrap.
    return fitLine(`⋯ ${[totals, ...steps].join(' · ')}`, width - 1);
  }

  private begin(key: string, label: string): void {
    // The label names a file a model chose: one clean line (this line is written past output.ts).
    this.steps.set(key, { label: cleanLine(label), report: null, at: this.now() });
  }

  private around(write: () => void): void {
    this.clear();
    write();
    this.draw();
  }

  private clear(): void {
    if (!this.drawn || this.stream.destroyed) return;
    this.stream.write('\r\x1b[2K');
    this.drawn = false;
  }

  private draw(): void {
    this.clear();
    if (this.steps.size === 0 || this.stream.destroyed) return;
    this.stream.write(pc.dim(this.text()));
    this.drawn = true;
  }
}

const keyOf = (call: CallMeta): string => `${call.role}\u0000${call.action}\u0000${call.key ?? ''}`;

/** `1:05`: minutes and seconds. */
const clock = (ms: number): string => `${Math.floor(ms / 60_000)}:${String(Math.floor(ms / 1000) % 60).padStart(2, '0')}`;

/** `writing 120 tokens, 6.1 tokens/s, 0:21` — or what the request is doing before that. */
export function describeProgress(report: ProgressReport, elapsedMs: number): string {
  if (report.phase === 'writing') {
    const rate = report.tokensPerSecond === null ? '' : `, ${report.tokensPerSecond.toFixed(1)} tokens/s`;
    return `writing ${report.tokens} token${report.tokens === 1 ? '' : 's'}${rate}, ${clock(elapsedMs)}`;
  }
  if (report.phase === 'reading') return `reading the prompt${report.promptTokens === null ? '' : ` (${report.promptTokens} tokens)`}, ${clock(elapsedMs)}`;
  return `waiting for the model, ${clock(elapsedMs)}`;
}

/** A cost so far plus a call's (null: unknown, and unknown from then on). */
function addCost(sofar: number | null | undefined, cost: number | null): number | null {
  return sofar === null || cost === null ? null : (sofar ?? 0) + cost;
}
