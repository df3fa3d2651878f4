/** What the run loop tells its observer (the CLI's progress lines, tracing, tests); a verdict travels as `passed`, never in the text. */
import type { Message } from '../board/index.ts';

/** What a run's earlier processes used (tokens, cost: null when a call's price was unknown) and took (ms). */
export interface EarlierUsage {
  tokens: number;
  costUsd: number | null;
  wallMs: number;
}

export type LoopEvent =
  | {
      kind: 'start';
      project: string;
      projectDir: string;
      model: string;
      roles: string[];
      /** A resumed run: what its earlier processes used and took, so a running total is the whole run's. */
      earlier?: EarlierUsage;
    }
  | { kind: 'notice'; text: string }
  | { kind: 'message'; message: Message }
  | { kind: 'commit'; role: string; subject: string }
  | { kind: 'tests-start'; role: string; detail: string }
  | { kind: 'tests-end'; role: string; detail: string; passed: boolean }
  /** A fast check of a draft file (before its model review). */
  | { kind: 'check'; role: string; detail: string };
