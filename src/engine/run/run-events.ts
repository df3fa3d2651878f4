/** What a run tells its observer (the CLI's progress lines, tests). */
import type { Message } from '../board/message.ts';
import type { GatewayEvent } from '../../capabilities/model/gateway.ts';

export type RunEvent =
  | { kind: 'start'; project: string; projectDir: string; model: string; roles: string[] }
  | { kind: 'notice'; text: string }
  | { kind: 'model'; event: GatewayEvent }
  | { kind: 'message'; message: Message }
  | { kind: 'commit'; role: string; subject: string }
  | { kind: 'tests-start' | 'tests-end'; role: string; detail: string }
  /** A fast check of a draft file (before its model review). */
  | { kind: 'check'; role: string; detail: string };
