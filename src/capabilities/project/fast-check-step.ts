/**
 * The `fastCheck` step: a draft file's cheap checks (src/capabilities/project/fast-checks.ts) and its completeness
 * (src/documents/completeness.ts), before a model reviews it. The output reads as a review — a
 * failure goes to the revise step as its issues, with the checker's own output — and carries every
 * check the file failed so far, which its Code message keeps: each failure is a model review saved.
 */
import { z } from 'zod';
import { CodeFile, describePlaceholders, FastCheckVerdict, placeholderRule, placeholdersIn } from '../../documents/index.ts';
import { defineStep } from '../../engine/steps/index.ts';
import { SopworksError } from '../../ground/errors.ts';
import { checkersFor, runFastChecks } from './fast-checks.ts';

export const fastCheck = defineStep({
  description:
    "Check a draft file before its model review: the language's cheap checks in the sandbox (node --check for " +
    "JavaScript, tsc --noEmit for TypeScript once the project's typescript is installed, py_compile for Python, JSON " +
    "parsing, the project's linter when it declares one) and completeness (no TODO, NotImplementedError, or function " +
    "that only passes). The output is a review (`approved`, `issues`: the checkers' output) with `checks`, every check " +
    'the file failed so far (read from the `history` slot) and the last ones: keep it, send a failure to the revise step, ' +
    'and publish it with the Code (`fields: { checks: … }`) so the run counts the reviews it saved.',
  params: z
    .object({
      slot: z.string().min(1).default('draft'),
      history: z.string().min(1).default('checked'),
      completeness: z.boolean().default(true),
    })
    .strict(),
  output: FastCheckVerdict,
  // What the writer's prompt states: the checkers this file gets in this project now, and completeness.
  rules: async ({ params, view }, ports) => {
    const file = await view('current');
    if (typeof file !== 'string') return [];
    const checkers = [
      ...(file.toLowerCase().endsWith('.json') ? ['JSON.parse'] : []),
      ...(await checkersFor(file, ports.repository.root)).map((plan) => plan.checker),
    ];
    const complete = params.completeness ? placeholderRule(file) : null;
    return [
      ...(checkers.length > 0 ? [`\`${file}\` must pass ${checkers.map((c) => `\`${c}\``).join(' and ')}, run on it before any review.`] : []),
      ...(complete ? [complete] : []),
    ];
  },
  async run({ params, context }, ports) {
    const draft = CodeFile.safeParse(context.slots[params.slot]);
    if (!draft.success) {
      throw new SopworksError(
        'SOP_INVALID',
        `${ports.role.profile.id}: fastCheck needs a file in the slot "${params.slot}" (keep the write step's output there).`,
      );
    }
    const { path: file, content } = draft.data;
    const earlier = FastCheckVerdict.safeParse(context.slots[params.history]);
    const checks = await runFastChecks({
      file,
      content,
      projectDir: ports.repository.root,
      sandbox: ports.sandbox,
      onNotice: (notice) => ports.run.report({ kind: 'check', detail: `${file}: ${notice}` }),
    });
    if (params.completeness) {
      const placeholders = describePlaceholders(file, placeholdersIn(file, content));
      checks.push({ path: file, checker: 'completeness', passed: placeholders.length === 0, problems: placeholders });
    }
    const failed = checks.filter((check) => !check.passed);
    for (const check of failed) ports.run.report({ kind: 'check', detail: `${file}: ${check.checker} failed; back to the writer before review` });
    return {
      approved: failed.length === 0,
      issues: failed.map((check) => `${check.checker} failed:\n${check.problems.join('\n')}`),
      checks: [...(earlier.success ? earlier.data.checks.filter((check) => !check.passed) : []), ...checks],
    };
  },
});
