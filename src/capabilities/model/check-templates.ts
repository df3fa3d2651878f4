/**
 * Checks the prompt templates a company renders: each prompt step's roles/<role>/<action>.hbs, the
 * partials they include from roles/_shared/, and the shared system, format and repair templates.
 * Every template must exist and compile, and every name it uses at its top level must be one the
 * renderer gives it — for a step: `role`, `key`, `revisions` and the step's `with` list (see PromptRenderer).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import Handlebars from 'handlebars';
import { RoleProfile } from '../../engine/roles/index.ts';
import { type Diagnostic, stepsOf, type TemplateRole, templateError } from '../../engine/sop/index.ts';
import type { StepPrompt, Vocabulary } from '../../engine/steps/index.ts';
import { analyseTemplate, type Position, type TemplateAnalysis, type TemplateUse } from './template-analysis.ts';

/** The helpers PromptRenderer (src/capabilities/model/prompt-renderer.ts) registers besides Handlebars' built-in ones. */
export const SOPWORKS_HELPERS = [
  'json',
  'markdown',
  'join',
  'fence',
  'includes',
  'paths',
  'isDocument',
  'criterionId',
  'above',
  'firstLine',
  'outputFormat',
] as const;
const HELPERS: ReadonlySet<string> = new Set([...Object.keys(Handlebars.create().helpers), ...SOPWORKS_HELPERS]);
const PROFILE_FIELDS = [...Object.keys(RoleProfile.shape), 'id', 'email', 'reviewing'];

type Kind = 'json' | 'code' | 'files' | 'edits';
const kindOf = (output: string): Kind => (output === 'code' || output === 'files' || output === 'edits' ? output : 'json');

/** What one rendering of a template is given, and who to blame when something is missing. */
interface Scope {
  /** Names the template may use at its top level; null when its context is not known (checked no further). */
  provided: Set<string> | null;
  /** Who renders the template with what: `step "writing" (sops/qa.yaml:12:7) gives role, key, prd`. */
  given: (names: string) => string;
  fix: string;
  /** Partials being followed, to stop at a partial that includes itself. */
  partials: string[];
  /** The include being followed, when the template is a partial. */
  include: { partial: string; at: string } | null;
  /** The artifacts `markdown` renders, by name. */
  markdown: ReadonlySet<string>;
}

/** What the checks are handed: the vocabulary (each step says the prompt it renders) and the artifacts `markdown` renders. */
export interface TemplateCheckKit {
  vocabulary: Vocabulary;
  markdown: readonly string[];
}

export async function checkTemplates(
  rolesDir: string,
  roles: readonly TemplateRole[],
  kit: TemplateCheckKit,
): Promise<{ diagnostics: Diagnostic[]; checked: number }> {
  const markdown = new Set(kit.markdown);
  const diagnostics: Diagnostic[] = [];
  const sharedDir = path.join(rolesDir, '_shared');
  const analyses = new Map<string, TemplateAnalysis | null>();
  const analyse = async (file: string): Promise<TemplateAnalysis | null> => {
    if (!analyses.has(file)) {
      const source = await fs.readFile(file, 'utf8').catch(() => null);
      const analysis = source === null ? null : analyseTemplate(source, HELPERS);
      if (analysis && !analysis.ok)
        diagnostics.push(templateError(pos(file, analysis.at), `the template does not compile: ${analysis.message}; fix its Handlebars syntax`));
      analyses.set(file, analysis);
    }
    return analyses.get(file)!;
  };
  const partials = new Map(
    (await fs.readdir(sharedDir).catch(() => [] as string[])).filter((f) => f.endsWith('.hbs')).map((f) => [f.slice(0, -4), path.join(sharedDir, f)]),
  );
  // Every shared file is registered as a partial, so each must compile.
  for (const file of partials.values()) await analyse(file);

  /** A partial's problem is the same at every include: reported once, with how many includes share it. */
  const inPartials = new Map<string, { where: string; message: string; includes: number }>();
  const check = async (file: string, scope: Scope): Promise<void> => {
    const analysis = await analyse(file);
    if (!analysis?.ok) return;
    for (const use of analysis.uses) {
      const problem = useProblem(use, scope, partials);
      const where = pos(file, use.at);
      if (problem && scope.include) {
        const id = `${where}\u0000${use.kind === 'variable' ? use.name : use.kind}`;
        const seen = inPartials.get(id);
        if (seen) seen.includes++;
        else inPartials.set(id, { where, message: problem, includes: 1 });
      } else if (problem) {
        diagnostics.push(templateError(where, problem));
      }
      if (use.kind !== 'partial' || !partials.has(use.name) || scope.partials.includes(use.name)) continue;
      const inherits = use.topLevel && !use.hasContext && scope.provided !== null;
      await check(partials.get(use.name)!, {
        ...scope,
        provided: inherits ? new Set([...scope.provided!, ...use.hashKeys]) : null,
        partials: [...scope.partials, use.name],
        include: { partial: use.name, at: pos(file, use.at) },
      });
    }
  };

  const kinds = new Map<Kind, string>();
  for (const role of roles) {
    // Every step that renders a prompt says which (an `ask`; a change run's `edit`, with `original` besides its list).
    const prompts = stepsOf(role.sop, kit.vocabulary).flatMap((step) => {
      const prompt: StepPrompt | undefined = step.params ? kit.vocabulary.steps[step.src]?.prompt?.(step.params) : undefined;
      return prompt ? [{ ...step, prompt }] : [];
    });
    for (const step of prompts) {
      const { action, output, outputParam } = step.prompt;
      if (!kinds.has(kindOf(output))) kinds.set(kindOf(output), role.sopWhere([...step.at, 'input', outputParam]));
      const template = path.join(rolesDir, role.id, `${action}.hbs`);
      if (!(await exists(template))) {
        diagnostics.push(
          templateError(
            role.sopWhere([...step.at, 'input', 'action']),
            `step "${action}" of ${role.id} has no template ${template}; write it (docs/sops.md lists what it is given), or change the step's action`,
          ),
        );
        continue;
      }
      const provided = new Set(['role', 'key', 'revisions', ...step.prompt.with]);
      await check(template, {
        markdown,
        provided,
        given: (names) => `step "${step.state.path.join('.')}" (${role.sopWhere(step.at)}) gives ${names}`,
        fix: `add it to the step's with list (a view or a slot the SOP keeps), or remove it from the template`,
        partials: [],
        include: null,
      });
    }
  }

  await checkSharedTemplates(kinds, { sharedDir, diagnostics, check, markdown });
  for (const problem of inPartials.values()) {
    const others = problem.includes - 1;
    diagnostics.push(templateError(problem.where, problem.message + (others > 0 ? ` (the same at ${others} other include${others > 1 ? 's' : ''})` : '')));
  }
  return { diagnostics, checked: analyses.size };
}

/** What checking the shared templates needs from checkTemplates: where they are, where to report, how to check one. */
interface SharedCheck {
  sharedDir: string;
  diagnostics: Diagnostic[];
  check: (file: string, scope: Scope) => Promise<void>;
  markdown: ReadonlySet<string>;
}

/**
 * The shared templates every model call renders (PromptRenderer.render and renderRepair): the system
 * prompt, one format template per output kind the steps use (`kinds`, each with where it is first used),
 * and the repair prompt.
 */
async function checkSharedTemplates(kinds: Map<Kind, string>, { sharedDir, diagnostics, check, markdown }: SharedCheck): Promise<void> {
  if (kinds.size === 0) return;
  const firstStep = [...kinds.values()][0]!;
  const shared = async (name: string, provided: string[], neededAt: string, renderedFor: string) => {
    const file = path.join(sharedDir, `${name}.hbs`);
    const given = (names: string) => `sopworks renders it for ${renderedFor} with ${names}`;
    if (!(await exists(file))) {
      diagnostics.push(
        templateError(neededAt, `${file} is missing; ${given(provided.join(', '))}; \`sopworks sop init DIR\` writes the defaults to copy it from`),
      );
      return;
    }
    await check(file, { provided: new Set(provided), given, fix: 'remove it from the template', partials: [], include: null, markdown });
  };
  await shared('system', ['role'], firstStep, 'every model call, as the system prompt,');
  for (const [kind, at] of kinds) {
    const extra = kind === 'json' ? ['schema'] : kind === 'code' || kind === 'edits' ? ['path'] : [];
    await shared(
      `format-${kind}`,
      ['kind', 'replyTokens', 'replyChars', 'continuedTokens', 'continuedChars', ...extra],
      at,
      `every step with output ${kind === 'json' ? 'of a structured type' : kind}`,
    );
  }
  // A re-ask may follow any step, so repair.hbs gets only what every output kind in use provides.
  const repair = [
    'error',
    'excerpt',
    'partial',
    'earlier',
    'kind',
    'replyTokens',
    'replyChars',
    'continuedTokens',
    'continuedChars',
    ...(kinds.size === 1 && kinds.has('json') ? ['schema'] : []),
    ...(kinds.size === 1 && kinds.has('code') ? ['path'] : []),
  ];
  await shared('repair', repair, firstStep, 'every re-ask after an invalid reply');
  // rules.hbs is optional (a roles folder without it gets the rules in plain words).
  if (await exists(path.join(sharedDir, 'rules.hbs'))) await shared('rules', ['rules'], firstStep, 'every step whose reply a check judges');
  // role.hbs and documents.hbs open every request, together (a roles folder without them keeps the role in its system prompt).
  if ((await exists(path.join(sharedDir, 'role.hbs'))) && (await exists(path.join(sharedDir, 'documents.hbs')))) {
    await shared('role', ['role'], firstStep, 'every model call, after the documents it opens with,');
    await shared('documents', ['prefix'], firstStep, 'every model call, as the documents it opens with,');
  }
}

function useProblem(use: TemplateUse, scope: Scope, partials: Map<string, string>): string | null {
  switch (use.kind) {
    case 'variable':
      if (scope.provided === null) return null;
      if (!scope.provided.has(use.name)) {
        const given = scope.given([...scope.provided].join(', '));
        return scope.include
          ? `"${use.name}" is not given to partial "${scope.include.partial}": its include at ${scope.include.at} is in a template whose ${given}; ` +
              `pass it in the include ({{> ${scope.include.partial} ${use.name}=…}}), or ${scope.fix}`
          : `"${use.name}" is not given to this template: ${given}; ${scope.fix}`;
      }
      if (use.name === 'role' && use.member !== null && !PROFILE_FIELDS.includes(use.member) && scope.provided.has('role')) {
        return `role has no field "${use.member}"; it has ${PROFILE_FIELDS.join(', ')} (from roles/<role>/role.yaml)`;
      }
      return null;
    case 'helper':
      return HELPERS.has(use.name) ? null : `unknown helper "${use.name}"; use one of ${[...HELPERS].filter((h) => !/Missing$/.test(h)).join(', ')}`;
    case 'markdown':
      return use.artifact !== null && scope.markdown.has(use.artifact)
        ? null
        : `markdown needs the artifact's type as its first argument, in quotes: one of ${[...scope.markdown].map((r) => `"${r}"`).join(', ')}`;
    case 'above-top':
      return `"${use.original}" climbs above the template's top level; drop the ../ (inside #if and #unless the variables are in scope as they are)`;
    case 'partial':
      return partials.has(use.name)
        ? null
        : `partial "${use.name}" is not in roles/_shared/; write roles/_shared/${use.name}.hbs, or use one of ${[...partials.keys()].join(', ')}`;
  }
}

const pos = (file: string, at: Position): string => `${file}:${at.line}:${at.column}`;

async function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    (s) => s.isFile(),
    () => false,
  );
}
