/** `check`: an artifact checked against the design and the policy; fails with the problems found. */
import { z } from 'zod';
import * as S from '../../documents/index.ts';
import { validateTaskGraph } from '../../documents/index.ts';
import { defineStep, planRefusals } from '../../engine/steps/index.ts';
import { SopworksError } from '../../ground/errors.ts';

export const check = defineStep({
  description:
    'Check an artifact; fails with the problems found. `taskGraph`: the slot `tasks` against `design`, and against the ' +
    "policy: the `writer` role (default engineer) may write every task's file, the `tester` (default qa) may run the test command.",
  params: z.object({ check: z.enum(['taskGraph']), writer: z.string().min(1).default('engineer'), tester: z.string().min(1).default('qa') }).strict(),
  output: z.void(),
  async run({ params, view }, ports) {
    const tasks = S.TaskGraph.parse(await view('tasks'));
    const design = S.Design.parse(await view('design'));
    const problems = [
      ...validateTaskGraph(tasks, design),
      ...planRefusals(
        ports.policy,
        params,
        tasks.tasks.map((t) => t.file),
        design.testCommand,
      ),
    ];
    if (problems.length > 0) {
      throw new SopworksError('TASK_GRAPH_INVALID', `The task graph is invalid:\n${problems.map((p) => `- ${p}`).join('\n')}`);
    }
  },
});
