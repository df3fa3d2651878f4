/**
 * The prompts a company's SOPs send, as the context plan needs them (src/capabilities/model/context-plan.ts):
 * each `ask` (and `edit`, `clarify`) step's fixed text — system prompt, template, format and schema — and how many
 * model replies its views carry. Made before the model loads, so a model whose context cannot hold the
 * SOP is refused before anything is written.
 */
import type { z } from 'zod';
import type { OutputSpec, SopPrompt } from '../capabilities/model/index.ts';
import { formatOf, PromptRenderer } from '../capabilities/model/index.ts';
import { stepsOf } from '../engine/sop/index.ts';
import type { SopFile } from '../engine/steps/index.ts';
import type { Company } from './load-company.ts';
import { askOutputs, markdownRenderers, vocabulary } from './vocabulary.ts';

/** Views that carry one reply per file: the files QA tests, a file's dependencies, the sources a change reads. (Tests are one reply.) */
const PER_FILE = new Set(['files', 'dependencies', 'sources']);
/** Views that carry next to nothing: a name, a path, a count, a flag. */
const SMALL = new Set(['key', 'current', 'done', 'project']);
/** Views whose text is known when the run starts (the spec is part of the fixed prompt). */
const KNOWN = new Set(['spec', 'request']);

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
        const fixed = renderer.renderFixed(role.profile, params.action, formatOf(output));
        const views = [...(params.with ?? []), ...(step.src === 'edit' ? ['original'] : [])];
        const given = views.filter((view) => KNOWN.has(view)).length > 0 ? `\n${spec}` : '';
        prompts.set(name, {
          name,
          system: fixed.system,
          user: fixed.user + given,
          replies: views.filter((v) => !PER_FILE.has(v) && !SMALL.has(v) && !KNOWN.has(v)).length,
          perFile: views.filter((v) => PER_FILE.has(v)).length,
          schema: output.kind === 'json' ? output.schema : null,
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
