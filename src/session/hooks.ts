/**
 * What a front end plugs into a run — handed in, never registered in a global: the lines it shows a
 * person, the run's events, when to stop, who approves and answers, a queued run's lease, and what
 * wraps the provider. Each front end fills what it has: the CLI a terminal, eval a log file, a queue
 * worker its lease and shared rate limits, the workbench its page.
 */
import type { AnswerPerson, AskPerson } from '../capabilities/approvals/index.ts';
import type { ProviderHooks, Settings } from '../capabilities/model/index.ts';
import type { RunEvent } from '../company/index.ts';
import type { RunLease } from '../engine/run/index.ts';

/** Lines for a person. */
export interface Lines {
  out(line: string): void;
  err(line: string): void;
}

export interface SessionHooks {
  /** Warnings, notices and what the run is about to do, as lines for a person. */
  lines: Lines;
  /** Each event of the run as it happens: progress lines, JSON lines, traces. */
  onEvent?: (event: RunEvent) => void;
  /**
   * `soft`: stop after the steps in flight (a first Ctrl-C, a worker's shutdown); `hard`: stop at once.
   * The request's --max-time is added by the session.
   */
  stop?: { soft?: AbortSignal; hard?: AbortSignal };
  /** Who decides on artifacts held for approval, and who answers the roles' questions; absent or null: nobody (the run waits). */
  askPerson?: AskPerson | null;
  answerPerson?: AnswerPerson | null;
  /** A queued run's lease: its lock names it, its loss stops the run at once, every write asks it first. */
  lease?: RunLease | null;
  /** What wraps every provider the run makes and hears its notices and retries (a worker's shared rate limits), besides the lines. */
  provider?: ProviderHooks | undefined;
  /** Reads standard input whole, for a spec or request given as `-`. */
  readStdin?: () => Promise<Buffer>;
  /** The settings (default: read from the environment, src/capabilities/model/settings.ts). */
  settings?: Settings;
}
