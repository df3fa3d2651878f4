/**
 * Limits that fit the model: from its context window and the SOP's prompts, the output limit, the caps
 * on strings and lists, and the continuations, such that no step's prompt can overflow the context —
 * nor any of its re-asks. Pure.
 *
 * A step's prompt is its fixed text (system prompt, template, format and schema: `fixedTokens`) plus
 * what its views carry. Every view carries model replies — a PRD, a design, a draft — or one per file
 * (the files QA tests, the interfaces of a file's dependencies), so with every reply at most `reply`
 * tokens (a hard limit of each request), `files` files at most (the cap on lists: a task graph is a
 * list) and renderings at most RENDERING times a reply's tokens, a step's prompt is at most
 *   fixedTokens + REASK + RENDERING × reply × (replies + perFile × files)
 * and the plan picks the largest reply (and list cap) for which that plus the reply fits every step.
 * A reply that later prompts carry must fit one request, so there are no continuations; and strings are
 * capped so that an artifact with every list full fits its reply at about CHARS_PER_TOKEN characters a
 * token (a model that writes junk hits the output limit instead, and is re-asked — never overflows).
 */
import type { z } from 'zod';
import { SopworksError } from '../../ground/errors.ts';
import type { ChatMessage } from './provider.ts';
import { REASK_LIMITS } from './reask.ts';
import { strictJsonSchema } from './strict-json-schema.ts';

/** A step's prompt as the company's SOPs make it (src/company/sop-prompts.ts), before it is measured. */
export interface SopPrompt {
  name: string;
  /** The system prompt and the user prompt without what the step's views give it. */
  system: string;
  user: string;
  replies: number;
  perFile: number;
  /** The schema of a structured output; null for code. */
  schema: z.ZodType | null;
}

/** The SOP's prompts measured with a model's own tokenizer, for `planContext`. */
export function plannedSteps(prompts: readonly SopPrompt[], countPrompt: (messages: readonly ChatMessage[]) => number): PlannedStep[] {
  return prompts.map((prompt) => {
    const json = prompt.schema ? strictJsonSchema(prompt.schema, 'server') : null;
    return {
      name: prompt.name,
      fixedTokens: countPrompt([
        { role: 'system', content: prompt.system },
        { role: 'user', content: prompt.user },
      ]),
      replies: prompt.replies,
      perFile: prompt.perFile,
      ...(json ? { stringSlots: (n: number) => stringSlots(json, n) } : {}),
    };
  });
}

/** One line saying what a plan chose, for stderr when the model loads. */
export const describePlan = (plan: ContextPlan): string =>
  `limits for a context of ${plan.contextTokens} tokens: replies up to ${plan.replyTokens} tokens, lists up to ${plan.maxItems} item${plan.maxItems === 1 ? '' : 's'}, ` +
  `strings up to ${plan.maxStringChars} characters, no continuations (the largest prompt: ${plan.tightest.step}, at most ${plan.tightest.promptTokens} tokens)`;

/** One `ask` step of the SOP, as the plan sees it. */
export interface PlannedStep {
  /** e.g. "qa/write_tests", to name the step that does not fit. */
  name: string;
  /** The prompt without its views' content, in the model's tokens. */
  fixedTokens: number;
  /** Views that carry one reply each. */
  replies: number;
  /** Views that carry one reply per file. */
  perFile: number;
  /** For a structured output: how many strings its schema holds with every list `n` long. */
  stringSlots?: (n: number) => number;
}

export interface ContextPlan {
  contextTokens: number;
  /** The output limit of one request, and the most a reply (an artifact) can be. */
  replyTokens: number;
  /** The cap on lists whose schema sets none, files included. */
  maxItems: number;
  /** The cap on strings whose schema sets none. */
  maxStringChars: number;
  /** Continuations of a cut-off reply: none (see the module comment). */
  maxContinuations: 0;
  /** The step with the least room, and its largest prompt under the plan. */
  tightest: { step: string; promptTokens: number };
}

/** The most a re-ask adds to a prompt: the error and the earlier ones, the excerpt (reask.ts) and the repair template. */
export const REASK_TOKENS = REASK_LIMITS.errorTokens + REASK_LIMITS.earlierErrors * REASK_LIMITS.earlierErrorTokens + REASK_LIMITS.excerptTokens + 150;
/**
 * How much longer a reply gets as a later prompt shows it (JSON pretty-printed, Markdown labels and
 * tables): at most this, for any artifact at the plan's caps (test/unit/context-plan.test.ts attacks it).
 */
export const RENDERING = 2;
/** Characters a token of real text holds, for the string caps. */
export const CHARS_PER_TOKEN = 3;
/** Below this, a reply cannot hold even a small artifact: the model is refused. */
export const MIN_REPLY_TOKENS = 160;
/** The largest list cap chosen: more files than this is more than a small model's context carries. */
const MAX_ITEMS = 12;

/** The plan for a context of `contextTokens` (see the module comment), or an error saying what to set. */
export function planContext(contextTokens: number, steps: readonly PlannedStep[], ceiling: { replyTokens: number }): ContextPlan {
  if (steps.length === 0) throw new Error('no step to plan for');
  // As many files as leave every reply at least a sixteenth of the context (a file of a useful length);
  // with fewer, replies grow — down to one file, if need be, as long as a reply can hold an artifact.
  const target = Math.max(MIN_REPLY_TOKENS, Math.min(ceiling.replyTokens, Math.floor(contextTokens / 16)));
  const replyWith = (files: number) => Math.min(ceiling.replyTokens, ...steps.map((step) => roomFor(step, contextTokens, files)));
  let chosen = 1;
  for (let files = MAX_ITEMS; files > 1; files--) {
    if (replyWith(files) >= target) {
      chosen = files;
      break;
    }
  }
  for (const maxItems of [chosen]) {
    const reply = replyWith(maxItems);
    if (reply < MIN_REPLY_TOKENS) break;
    const slots = Math.max(1, ...steps.map((step) => step.stringSlots?.(maxItems) ?? 1));
    const tightest = steps
      .map((step) => ({ step: step.name, promptTokens: promptBound(step, reply, maxItems) }))
      .reduce((a, b) => (b.promptTokens > a.promptTokens ? b : a));
    return {
      contextTokens,
      replyTokens: reply,
      maxItems,
      maxStringChars: Math.max(16, Math.floor((reply * CHARS_PER_TOKEN) / slots)),
      maxContinuations: 0,
      tightest,
    };
  }
  throw tooSmall(contextTokens, steps);
}

/** The largest prompt a step can have under a plan. */
export const promptBound = (step: PlannedStep, reply: number, files: number): number =>
  Math.ceil(step.fixedTokens + REASK_TOKENS + RENDERING * reply * (step.replies + step.perFile * files));

/** The largest reply that leaves the step's prompt and its reply within the context. */
const roomFor = (step: PlannedStep, context: number, files: number): number =>
  Math.floor((context - step.fixedTokens - REASK_TOKENS) / (1 + RENDERING * (step.replies + step.perFile * files)));

function tooSmall(contextTokens: number, steps: readonly PlannedStep[]): SopworksError {
  const worst = steps.reduce((a, b) => (promptBound(b, MIN_REPLY_TOKENS, 1) > promptBound(a, MIN_REPLY_TOKENS, 1) ? b : a));
  const needed = promptBound(worst, MIN_REPLY_TOKENS, 1) + MIN_REPLY_TOKENS;
  return new SopworksError(
    'NO_MODEL',
    `The model's context of ${contextTokens} tokens cannot hold the SOP's largest prompt: step ${worst.name} is ${worst.fixedTokens} tokens before what it is given, ` +
      `and with replies of ${MIN_REPLY_TOKENS} tokens and a re-ask it needs about ${needed}.`,
    {
      hint: `Set SOPWORKS_LOCAL_CONTEXT to ${Math.ceil(needed / 256) * 256} or more (memory allowing), choose a model with a larger context, or use a smaller SOP (--sops) whose steps carry less.`,
    },
  );
}

/** How many strings a JSON Schema holds with every list `n` long (lists that set their own bound keep it). */
export function stringSlots(node: unknown, n: number): number {
  if (node === null || typeof node !== 'object') return 0;
  const schema = node as Record<string, unknown>;
  const choices = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (choices) return Math.max(0, ...choices.map((choice) => stringSlots(choice, n)));
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('string') && schema.enum === undefined) return 1;
  if (types.includes('array')) return (typeof schema.maxItems === 'number' ? Math.min(schema.maxItems, n) : n) * stringSlots(schema.items, n);
  if (types.includes('object'))
    return Object.values((schema.properties ?? {}) as Record<string, unknown>).reduce<number>((sum, p) => sum + stringSlots(p, n), 0);
  return 0;
}
