/** What a run tells its observer (the CLI's progress lines, tracing, tests): the loop's events and the model gateway's. */
import type { GatewayEvent } from '../capabilities/model/index.ts';
import type { LoopEvent } from '../engine/run/index.ts';

export type RunEvent = LoopEvent | { kind: 'model'; event: GatewayEvent };
