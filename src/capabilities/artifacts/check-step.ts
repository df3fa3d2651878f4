/** `check`: an artifact checked against the design and the policy; fails with the problems found. */
import { fromPromise } from 'xstate';
import { z } from 'zod';
import * as S from '../../documents/schemas.ts';
import { validateTaskGraph } from '../../documents/task-graph.ts';
import { SopworksError } from '../../ground/errors.ts';
import { commandRefusal } from '../policy/may-run.ts';
import { writeRefusals } from '../policy/may-write.ts';
import type { RoleServices } from '../../engine/sop/services.ts';
import { resolveView } from './views.ts';
import type { VocabularyEntry } from '../../engine/steps/actions.ts';
import { scopeOf, type Params, type StepInput } from '../../engine/steps/step.ts';

export const check = {
  description:
    'Check an artifact; fails with the problems found. `taskGraph`: the slot `tasks` against `design`, and against the ' +
    "policy: the `writer` role (default engineer) may write every task's file, the `tester` (default qa) may run the test command.",
  params: z.object({ check: z.enum(['taskGraph']), writer: z.string().min(1).default('engineer'), tester: z.string().min(1).default('qa') }).strict(),
} satisfies VocabularyEntry;

export const checkActor = (services: RoleServices) =>
  fromPromise<void, StepInput<Params<typeof check>>>(async ({ input: { params, context } }) => {
    const tasks = S.TaskGraph.parse(resolveView('tasks', scopeOf(services, context)));
    const design = S.Design.parse(resolveView('design', scopeOf(services, context)));
    const problems = validateTaskGraph(tasks, design);
    for (const refusal of writeRefusals(
      services.policy,
      params.writer,
      tasks.tasks.map((t) => t.file),
    ))
      problems.push(`a task the policy refuses: ${refusal}`);
    const testCommand = commandRefusal(services.policy, params.tester, design.testCommand);
    if (testCommand) problems.push(`the design's test command is refused: ${testCommand}`);
    if (problems.length > 0) {
      throw new SopworksError('TASK_GRAPH_INVALID', `The task graph is invalid:\n${problems.map((p) => `- ${p}`).join('\n')}`);
    }
  });
