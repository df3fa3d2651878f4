/**
 * The live status line at the bottom of a terminal while a run goes on: for each model call under way,
 * its phase (reading the prompt, writing, waiting for the server), the tokens written so far and their
 * rate, and how long it has taken — redrawn every second, so a reply that takes twenty minutes on a CPU
 * shows that it is alive. Only on a terminal: piped output gets the progress lines alone (and `--json`
 * the events). Every line written while it shows clears it first and draws it again after.
 */
import pc from 'picocolors';
import type { CallMeta, ProgressReport } from '../../capabilities/model/index.ts';
import { cleanLine } from '../../ground/terminal-text.ts';
import type { Lines as Output } from '../../session/index.ts';

const REDRAW_MS = 1000;

interface Shown {
  label: string;
  report: ProgressReport;
  /** When the report came, to count the time on between reports. */
  at: number;
}

export class LiveStatus {
  private readonly calls = new Map<string, Shown>();
  private drawn = false;
  private readonly timer: NodeJS.Timeout;

  private constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly now: () => number,
  ) {
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

  /** The progress of a call under way. */
  update(call: CallMeta, report: ProgressReport): void {
    // The label names a file a model chose: one clean line (this line is written past output.ts).
    this.calls.set(keyOf(call), { label: cleanLine(`${call.role} ${call.action}${call.key ? ` ${call.key}` : ''}`), report, at: this.now() });
    this.draw();
  }

  /** A call that ended: its status goes. */
  done(call: CallMeta): void {
    if (this.calls.delete(keyOf(call))) this.draw();
  }

  /** Clears the line and stops redrawing it. */
  close(): void {
    clearInterval(this.timer);
    this.calls.clear();
    this.clear();
  }

  /** The status text: each call under way, the longest-running first. */
  text(width: number = this.stream.columns || 100): string {
    const now = this.now();
    const parts = [...this.calls.values()]
      .sort((a, b) => b.report.elapsedMs - a.report.elapsedMs)
      .map((shown) => `${shown.label}: ${describeProgress(shown.report, shown.report.elapsedMs + (now - shown.at))}`);
    const line = `⋯ ${parts.join(' · ')}`;
    return Array.from(line).length > width - 1
      ? `${Array.from(line)
          .slice(0, width - 2)
          .join('')}…`
      : line;
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
    if (this.calls.size === 0 || this.stream.destroyed) return;
    this.stream.write(pc.dim(this.text()));
    this.drawn = true;
  }
}

const keyOf = (call: CallMeta): string => `${call.role}\u0000${call.action}\u0000${call.key ?? ''}`;

/** `writing 120 tokens, 6.1 tokens/s, 0:21` — or what the request is doing before that. */
export function describeProgress(report: ProgressReport, elapsedMs: number): string {
  const clock = `${Math.floor(elapsedMs / 60_000)}:${String(Math.floor(elapsedMs / 1000) % 60).padStart(2, '0')}`;
  if (report.phase === 'writing') {
    const rate = report.tokensPerSecond === null ? '' : `, ${report.tokensPerSecond.toFixed(1)} tokens/s`;
    return `writing ${report.tokens} token${report.tokens === 1 ? '' : 's'}${rate}, ${clock}`;
  }
  if (report.phase === 'reading') return `reading the prompt${report.promptTokens === null ? '' : ` (${report.promptTokens} tokens)`}, ${clock}`;
  return `waiting for the model, ${clock}`;
}
