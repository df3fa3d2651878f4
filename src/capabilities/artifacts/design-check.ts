/**
 * The design's check, before any task is planned: each path of its file list once, every file one its
 * writer may write, and the commands QA runs — the tests, the program's smoke run — ones its tester may
 * run. A problem here is the design's to fix, not the task graph's (which must have one task per file of
 * the list). The rules come from the policy in the words a prompt shows (`designRules`), so what the
 * Architect is told and what it is refused are one text. A policy that leaves no design able to pass (a
 * writer who may write nothing, a tester who may run nothing) is sopworks' conflict, not the model's.
 */

import { type Design, smokeCommandOf } from '../../documents/index.ts';
import type { PolicyPort } from '../../engine/steps/index.ts';
import { SopworksError } from '../../ground/errors.ts';

/** Who writes the design's files and who runs its commands. */
export interface PlanRoles {
  writer: string;
  tester: string;
}

/**
 * The file every project's design lists: README.md, written by a model from the PRD and the design once
 * the code is, and reviewed like any file — never rendered, so a design that leaves it out is sent back.
 */
export const README = 'README.md';
export const README_PURPOSE =
  'install, usage with real examples (for a program, commands exactly as it takes them and what they print; for a library, calls and what they return), how to run the tests';

/** A rule as one sentence: its own full stop, or one added. */
const sentence = (text: string): string => (text.endsWith('.') ? text : `${text}.`);

/** The rules a design must meet, as its prompt states them. */
export function designRules(policy: PolicyPort, roles: PlanRoles): string[] {
  return [
    `Every file of \`files\` is written by ${roles.writer}, so each path must be one it may write: ${policy.writeRule(roles.writer).text}.`,
    'Each path appears once in `files`.',
    `\`files\` lists \`${README}\` (${README_PURPOSE}): every project has one, written by ${roles.writer} once the code is.`,
    `\`testCommand\` is run by ${roles.tester} from the project root: ${sentence(policy.runRule(roles.tester).text)}`,
    `The program is run once on a concrete input by ${roles.tester} the same way: \`smokeCommand\`, or \`runCommand\` when smokeCommand is null and it has no placeholder (FILE, <path>, …), must meet the same rule.`,
  ];
}

/** What no design can meet under this policy: sopworks' own conflict, thrown before any problem of the design's. */
export function designConflicts(policy: PolicyPort, roles: PlanRoles): string[] {
  const conflicts: string[] = [];
  if (!policy.writeRule(roles.writer).satisfiable)
    conflicts.push(`every file of a design is ${roles.writer}'s to write, and the policy lets ${roles.writer} write nothing`);
  else if (policy.writeRefusals(roles.writer, [README]).length > 0)
    conflicts.push(`every design lists ${README}, which is ${roles.writer}'s to write, and the policy does not let ${roles.writer} write it`);
  if (!policy.runRule(roles.tester).satisfiable)
    conflicts.push(`a design's test command is ${roles.tester}'s to run, and the policy lets ${roles.tester} run nothing`);
  return conflicts;
}

/** The design's problems under the rules above, one line each (empty when it passes). */
export function designProblems(design: Pick<Design, 'files' | 'testCommand' | 'runCommand' | 'smokeCommand'>, policy: PolicyPort, roles: PlanRoles): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const file of design.files) {
    if (seen.has(file.path)) problems.push(`"${file.path}" is listed twice in files: list each file once`);
    seen.add(file.path);
  }
  if (!seen.has(README)) problems.push(`"${README}" is missing from files: every project has one — add it, its purpose: ${README_PURPOSE}`);
  for (const refusal of policy.writeRefusals(roles.writer, [...seen])) {
    problems.push(`a file of the design its writer may not write: ${refusal}. Leave it out of files, or give it a path ${roles.writer} may write`);
  }
  const tests = policy.commandRefusal(roles.tester, design.testCommand);
  if (tests) problems.push(`the test command is refused: ${tests}`);
  const smoke = smokeCommandOf(design);
  const refused = smoke ? policy.commandRefusal(roles.tester, smoke) : null;
  if (refused) problems.push(`the program's smoke run (${design.smokeCommand ? 'smokeCommand' : 'runCommand'}) is refused: ${refused}`);
  return problems;
}

/** Throws what is wrong with a design: a conflict of sopworks' own, or the design's problems for its step to fix. */
export function checkDesign(design: Pick<Design, 'files' | 'testCommand' | 'runCommand' | 'smokeCommand'>, policy: PolicyPort, roles: PlanRoles): void {
  const conflicts = designConflicts(policy, roles);
  if (conflicts.length > 0) {
    throw new SopworksError('CHECKS_CONFLICT', `No design can pass the design's check: ${conflicts.join('; ')}.`, {
      hint: `This is a fault of the SOP and its policy (${policy.source}), not of the model: give ${roles.writer} paths to write and ${roles.tester} commands to run, then start the run again.`,
    });
  }
  const problems = designProblems(design, policy, roles);
  if (problems.length > 0) throw new SopworksError('DESIGN_INVALID', `The design is invalid:\n${problems.map((p) => `- ${p}`).join('\n')}`);
}
