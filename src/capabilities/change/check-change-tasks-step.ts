/** `checkChangeTasks`: a change task graph checked against the work tree and the policy; fails with the problems found. */
import { z } from 'zod';
import * as C from '../../documents/index.ts';
import { defineStep, planRefusals } from '../../engine/steps/index.ts';
import { SopworksError } from '../../ground/errors.ts';
import { changeTaskProblems } from './check-change-tasks.ts';

export const checkChangeTasks = defineStep({
  description:
    'Check the change task graph in the slot `tasks` (default changeTasks) against the work tree and the policy: one task per file, known ' +
    'dependencies, no cycle; a file to modify exists and is text of a size that can be edited, a file to add does not exist yet; the ' +
    '`writer` role may write every file and the `tester` may run the test command of `design`. Fails with the problems found; a path that ' +
    'does not exist is answered with the nearest one the repository has (`README.md` for `Readme.md`).',
  params: z
    .object({
      tasks: z.string().min(1).default('changeTasks'),
      design: z.string().min(1).default('designDelta'),
      writer: z.string().min(1).default('engineer'),
      tester: z.string().min(1).default('qa'),
    })
    .strict(),
  output: z.void(),
  async run({ params, view }, ports) {
    const graph = C.ChangeTaskGraph.parse(await view(params.tasks));
    const design = C.DesignDelta.pick({ testCommand: true }).parse(await view(params.design));
    const problems = [
      ...(await changeTaskProblems(ports.repository.root, graph)),
      ...planRefusals(
        ports.policy,
        params,
        graph.tasks.map((t) => t.file),
        design.testCommand,
      ),
    ];
    if (problems.length > 0) throw new SopworksError('TASK_GRAPH_INVALID', `The change tasks are invalid:\n${problems.map((p) => `- ${p}`).join('\n')}`);
  },
});
