/** capabilities/policy: its public face — what other folders may use of it. */
export { loadPolicy, policyDiagnostics } from './load-policy.ts';
export { commandRefusal } from './may-run.ts';
export { policyWarmUpTasks, writeRefusals } from './may-write.ts';
export type { Policy } from './policy-file.ts';
export { policyPort } from './policy-port.ts';
