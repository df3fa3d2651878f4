/**
 * The prompts a company's SOPs send, as the context plan needs them (src/capabilities/model/context-plan.ts):
 * each `ask` (and `edit`, `clarify`) step's fixed text — system prompt, template, format and schema — and how many
 * model replies its views carry. Made before the model loads, so a model whose context cannot hold the
 * SOP is refused before anything is written.
 */
import type { z } from 'zod';
import { formatOf, type OutputSpec, PromptRenderer, type SopPrompt } from '../capabilities/model/index.ts';
import { stepsOf } from '../engine/sop/index.ts';
import type { SopFile } from '../engine/steps/index.ts';
import type { Company } from './load-company.ts';
import { askOutputs, markdownRenderers, vocabulary } from './vocabulary.ts';

/**
 * Views that carry a list of files — the files QA tests, the tests themselves, a file's dependencies, the
 * sources a change reads — which the gateway fits to the room a prompt has left (fit-files.ts).
 */
const PER_FILE = new Set(['files', 'dependencies', 'sources', 'tests', 'testFiles']);
/** Views that carry next to nothing: a name, a path, a count, a flag. */
const SMALL = new Set(['key', 'current', 'done', 'project']);
/** Views whose text is known when the run starts (the spec is part of the fixed prompt). */
const KNOWN = new Set(['spec', 'request']);

/** Limits as long as a planned run's, for measuring a format that states them. */
const MEASURED_LIMITS = { caps: { maxStringChars: 99_999, maxItems: 99 }, replyTokens: 99_999, continuedTokens: 99_999 };

/** Every model-asking step of the company's SOPs and per-file SOPs, with `spec` written into its fixed text. */
export function sopPrompts(company: Company, spec: string): SopPrompt[] {
  const renderer = new PromptRenderer(company.rolesDir, markdownRenderers);
  const prompts = new Map<string, SopPrompt>();
  for (const role of company.roles) {
    for (const sop of [role.sop, ...Object.values(role.subSops)] as SopFile[]) {
      for (const step of stepsOf(sop, vocabulary)) {
        if ((step.src !== 'ask' && step.src !== 'edit' && step.src !== 'clarify') || !step.params) continue;
        const params = (step.src === 'clarify' ? { ...step.params, output: 'ClarifyingQuestions' } : step.params) as {
          action: string;
          output?: string;
          with?: string[];
        };
        const name = `${role.id}/${params.action}`;
        if (prompts.has(name)) continue;
        const output = outputOf(step.src === 'edit' ? 'edits' : (params.output ?? 'code'));
        // Measured with caps and a reply limit in the format, as a planned run shows them.
        const fixed = renderer.renderFixed(role.profile, params.action, formatOf(output, MEASURED_LIMITS));
        const views = [...(params.with ?? []), ...(step.src === 'edit' ? ['original'] : [])];
        const given = views.filter((view) => KNOWN.has(view)).length > 0 ? `\n${spec}` : '';
        prompts.set(name, {
          name,
          system: fixed.system,
          user: fixed.user + given,
          replies: views.filter((v) => !PER_FILE.has(v) && !SMALL.has(v) && !KNOWN.has(v)).length,
          perFile: views.filter((v) => PER_FILE.has(v)).length,
          schema: output.kind === 'json' ? output.schema : null,
          files: output.kind === 'files',
        });
      }
    }
  }
  return [...prompts.values()];
}

function outputOf(output: string): OutputSpec {
  if (output === 'code') return { kind: 'code', path: 'src/example.js' };
  if (output === 'files') return { kind: 'files' };
  if (output === 'edits') return { kind: 'edits', path: 'src/example.js' };
  return { kind: 'json', name: output, schema: askOutputs[output] as z.ZodType };
}
