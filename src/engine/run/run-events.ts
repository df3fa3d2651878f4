/** What the run loop tells its observer (the CLI's progress lines, tracing, tests); a verdict travels as `passed`, never in the text. */
import type { Message } from '../board/index.ts';

export type LoopEvent =
  | { kind: 'start'; project: string; projectDir: string; model: string; roles: string[] }
  | { kind: 'notice'; text: string }
  | { kind: 'message'; message: Message }
  | { kind: 'commit'; role: string; subject: string }
  | { kind: 'tests-start'; role: string; detail: string }
  | { kind: 'tests-end'; role: string; detail: string; passed: boolean }
  /** A fast check of a draft file (before its model review). */
  | { kind: 'check'; role: string; detail: string };
