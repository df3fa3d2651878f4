/**
 * `check`: a plan checked before anyone builds on it; fails with the problems found, for the step that
 * owns them. `design`: the design against the policy (design-check.ts) — its problems go back to the
 * design step. `taskGraph`: the task graph against the design — its problems go back to the task step;
 * a task the policy refuses is a file of the design, which no task graph can leave out: that is a
 * conflict between the SOP's checks (it checks no design first), sopworks' fault, not the model's.
 */
import { z } from 'zod';
import { Design, TASK_GRAPH_RULES, TaskGraph, validateTaskGraph } from '../../documents/index.ts';
import { defineStep, type Ports } from '../../engine/steps/index.ts';
import { SopworksError } from '../../ground/errors.ts';
import { checkDesign, designRules, type PlanRoles } from './design-check.ts';

const Params = z
  .object({
    check: z.enum(['taskGraph', 'design']),
    writer: z.string().min(1).default('engineer'),
    tester: z.string().min(1).default('qa'),
    /** The slots holding the design and the task graph. */
    design: z.string().min(1).default('design'),
    tasks: z.string().min(1).default('tasks'),
  })
  .strict();

export const check = defineStep({
  description:
    'Check a plan; fails with the problems found, for the step that wrote it. `design`: the slot `design` against the policy — ' +
    "each path once, every file one the `writer` role (default engineer) may write, the test command and the program's smoke run " +
    'ones the `tester` (default qa) may run. `taskGraph`: the slot `tasks` against `design` — one task per file of the list, ' +
    'dependencies only on those files, no cycle. Whatever it checks is stated in the prompt of the step whose reply it judges (the ' +
    'state its onDone leads to). A policy under which nothing can pass fails the step as a conflict of the SOP, never back to the model.',
  params: Params,
  output: z.void(),
  rules: ({ params }, ports) => (params.check === 'design' ? designRules(ports.policy, params) : [...TASK_GRAPH_RULES]),
  async run({ params, view }, ports) {
    const design = Design.parse(await view(params.design));
    if (params.check === 'design') return checkDesign(design, ports.policy, params);
    const tasks = TaskGraph.parse(await view(params.tasks));
    conflictsOfTasks(tasks, design, ports, params);
    const problems = validateTaskGraph(tasks, design);
    if (problems.length > 0) {
      throw new SopworksError('TASK_GRAPH_INVALID', `The task graph is invalid:\n${problems.map((p) => `- ${p}`).join('\n')}`);
    }
  },
});

/** A task for a file of the design that its writer may not write: the design must change, which the task step cannot do. */
function conflictsOfTasks(tasks: TaskGraph, design: Design, ports: Ports, roles: PlanRoles): void {
  const listed = new Set(design.files.map((f) => f.path));
  const refused = ports.policy.writeRefusals(
    roles.writer,
    tasks.tasks.map((t) => t.file).filter((file) => listed.has(file)),
  );
  if (refused.length === 0) return;
  throw new SopworksError(
    'CHECKS_CONFLICT',
    `No task graph can pass: it must have a task for every file of the design, and the policy refuses some of them (${refused.join('; ')}).`,
    {
      hint: `This is a fault of the SOP, not of the model: check the design first (a \`check: design\` step after the design is written, as sops/architect.yaml does), so such a file goes back to the design. The policy is ${ports.policy.source}.`,
    },
  );
}
