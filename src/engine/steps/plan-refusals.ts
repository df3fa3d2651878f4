/** What the policy refuses of a plan of work: a file its writer may not write, a test command its tester may not run. */
import type { PolicyPort } from './ports.ts';

export function planRefusals(
  policy: PolicyPort,
  roles: { writer: string; tester: string },
  files: readonly string[],
  testCommand: readonly string[],
): string[] {
  const problems = policy.writeRefusals(roles.writer, files).map((refusal) => `a task the policy refuses: ${refusal}`);
  const refused = policy.commandRefusal(roles.tester, testCommand);
  if (refused) problems.push(`the design's test command is refused: ${refused}`);
  return problems;
}
