/** company: its public face — what other folders may use of it. */
export type { RunResult } from './finish-run.ts';
export { type Company, loadCompany, validateCompany } from './load-company.ts';
export { readInstructionsFile } from './project-instructions.ts';
export type { RunEvent } from './run-events.ts';
export { type LlmRecord, RUN_OUTCOMES, type RunOutcome, RunRecord, readRunRecord } from './run-record.ts';
export type { CommonRequest, StartRequest } from './run-request.ts';
export { sopPrompts } from './sop-prompts.ts';
export { resumableRecord, resumeRun, startRun } from './start-run.ts';
export { askOutputs, knownMessageTypes, markdownRenderers, messageTypes, vocabulary } from './vocabulary.ts';
