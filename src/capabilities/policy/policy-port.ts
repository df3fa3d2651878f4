/** The policy as the steps use it (src/engine/steps/ports.ts): what each role may write and run, and how dependencies are installed. */
import type { PolicyPort } from '../../engine/steps/index.ts';
import { commandRefusal, runRule } from './may-run.ts';
import { writeRefusals, writeRule } from './may-write.ts';
import type { Policy } from './policy-file.ts';

export function policyPort(policy: Policy): PolicyPort {
  return {
    source: policy.source,
    writeRefusals: (role, paths) => writeRefusals(policy, role, paths),
    commandRefusal: (role, command, context) => commandRefusal(policy, role, command, context),
    writeRule: (role) => writeRule(policy, role),
    runRule: (role, context) => runRule(policy, role, context),
    dependencies: policy.dependencies,
  };
}
