/** capabilities/policy: its public face — what other folders may use of it. */
export { loadPolicy, policyDiagnostics } from './load-policy.ts';
export { commandRefusal } from './may-run.ts';
export { policyWarmUpTasks, writeRefusal, writeRefusals } from './may-write.ts';
export { DEFAULT_POLICY, type Policy } from './policy-file.ts';
export { policyPort } from './policy-port.ts';
