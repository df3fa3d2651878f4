/** `checkChangeTasks`: a change task graph checked against the work tree and the policy; fails with the problems found. */
import { z } from 'zod';
import * as C from '../../documents/index.ts';
import { defineStep } from '../../engine/steps/index.ts';
import { SopworksError } from '../../ground/errors.ts';
import { CHANGE_TASK_RULES, changeTaskProblems } from './check-change-tasks.ts';

export const checkChangeTasks = defineStep({
  description:
    'Check the change task graph in the slot `tasks` (default changeTasks) against the work tree and the policy: one task per file, known ' +
    'dependencies, no cycle; a file to modify exists and is text of a size that can be edited, a file to add does not exist yet; the ' +
    '`writer` role may write every file. Fails with the problems found; a path that does not exist is answered with the nearest one the ' +
    "repository has (`README.md` for `Readme.md`). The design's test command is checkTestCommand's.",
  params: z
    .object({
      tasks: z.string().min(1).default('changeTasks'),
      writer: z.string().min(1).default('engineer'),
    })
    .strict(),
  output: z.void(),
  rules: ({ params }, ports) => [...CHANGE_TASK_RULES, `Every task's file is written by ${params.writer}: ${ports.policy.writeRule(params.writer).text}.`],
  async run({ params, view }, ports) {
    const graph = C.ChangeTaskGraph.parse(await view(params.tasks));
    // The design's test command was checked when it was written (checkTestCommand): the tasks cannot change it.
    const problems = [
      ...(await changeTaskProblems(ports.repository.root, graph)),
      ...ports.policy
        .writeRefusals(
          params.writer,
          graph.tasks.map((t) => t.file),
        )
        .map((refusal) => `a task the policy refuses: ${refusal}`),
    ];
    if (problems.length > 0) throw new SopworksError('TASK_GRAPH_INVALID', `The change tasks are invalid:\n${problems.map((p) => `- ${p}`).join('\n')}`);
  },
});
