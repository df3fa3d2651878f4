/**
 * Limits that fit the model: from its context window and the SOP's prompts, the output limit, the caps
 * on strings and lists, and the continuations — such that no step's prompt can overflow the context,
 * nor any of its re-asks, and the artifacts are those of the expected case, not the worst. Pure.
 *
 * A step's prompt is its fixed text (system prompt, template, format and schema: `fixedTokens`), the
 * rules the checks after it state (RULES_TOKENS at most), a re-ask's additions (REASK_TOKENS), what its
 * views carry, and the room kept for its reply. Views of two kinds:
 * - a model's reply (a PRD, a design, a draft): at most `reply` tokens, a hard limit of every request,
 *   shown at most RENDERING times longer — `RENDERING × reply` each;
 * - a list of files (the files QA tests, the dependencies' interfaces, the sources a change reads): these
 *   take whatever room is left, and the gateway fits them to it (fit-files.ts: the largest shown by their
 *   interface, then by name) — so a project of any size fits, and the plan only keeps each such step room
 *   for `MIN_FILES` files shown at least by their interface.
 * The reply is the largest (up to the ceiling) that leaves every step that room. A reply of files (QA's
 * tests) may be continued when cut off — `filesContinuations` times, its room kept in every step that
 * asks for one — so the tests a project needs need not fit one request; no other reply is continued.
 *
 * Caps, for a model that rambles inside valid JSON (a grammar, or a server's structured output, closes a
 * string or a list at its cap): a string may take a quarter of a reply (2,000 characters and more from a
 * reply of 2,700 tokens), a list as many items as the tightest step has room to show files by their
 * interface (MIN_LIST_ITEMS at least, MAX_ITEMS at most). The reply is the largest that leaves every step
 * room for as many files as keep it a sixteenth of the context, or the ceiling. Not every field can be full at once — the reply's own limit bounds the
 * whole, and a reply cut off there is re-asked, more concise — but no single field is cut short of what a
 * useful artifact holds. The caps are said in the prompt's own description of the format.
 */
import type { z } from 'zod';
import { SopworksError } from '../../ground/errors.ts';
import type { ChatMessage } from './provider.ts';
import { REASK_LIMITS } from './reask.ts';

/** A step's prompt as the company's SOPs make it (src/company/sop-prompts.ts), before it is measured. */
export interface SopPrompt {
  name: string;
  /** The system prompt and the user prompt without what the step's views give it. */
  system: string;
  user: string;
  /** Views that carry one reply each. */
  replies: number;
  /** Views that carry a list of files. */
  perFile: number;
  /** The schema of a structured output; null for code and files. */
  schema: z.ZodType | null;
  /** Whether its reply is files (QA's tests): continued when cut off. */
  files?: boolean;
}

/** The SOP's prompts measured with a model's own tokenizer, for `planContext`. */
export function plannedSteps(prompts: readonly SopPrompt[], countPrompt: (messages: readonly ChatMessage[]) => number): PlannedStep[] {
  return prompts.map((prompt) => ({
    name: prompt.name,
    fixedTokens: countPrompt([
      { role: 'system', content: prompt.system },
      { role: 'user', content: prompt.user },
    ]),
    replies: prompt.replies,
    perFile: prompt.perFile,
    files: prompt.files === true,
  }));
}

/** One line saying what a plan chose, for stderr when the model loads. */
export const describePlan = (plan: ContextPlan): string =>
  `limits for a context of ${plan.contextTokens} tokens: replies up to ${plan.replyTokens} tokens` +
  `${plan.filesContinuations > 0 ? ` (a reply of files continued up to ${plan.filesContinuations} times)` : ''}, lists up to ${plan.maxItems} item${plan.maxItems === 1 ? '' : 's'}, ` +
  `strings up to ${plan.maxStringChars} characters, files shown within the room each prompt has left (the largest prompt: ${plan.tightest.step}, ` +
  `${plan.tightest.promptTokens} tokens before its files)`;

/** One `ask` step of the SOP, as the plan sees it. */
export interface PlannedStep {
  /** e.g. "qa/write_tests", to name the step that does not fit. */
  name: string;
  /** The prompt without its views' content, in the model's tokens. */
  fixedTokens: number;
  /** Views that carry one reply each. */
  replies: number;
  /** Views that carry a list of files. */
  perFile: number;
  /** Its reply is files, continued when cut off. */
  files?: boolean;
}

export interface ContextPlan {
  contextTokens: number;
  /** The output limit of one request, and the most a reply (an artifact) can be. */
  replyTokens: number;
  /** The cap on lists whose schema sets none, files included. */
  maxItems: number;
  /** The cap on strings whose schema sets none. */
  maxStringChars: number;
  /** Continuations of a cut-off reply that later prompts carry whole: none. */
  maxContinuations: 0;
  /** Continuations of a cut-off reply of files (QA's tests), whose later prompts fit them as files. */
  filesContinuations: number;
  /** The step with the least room, and its largest prompt under the plan before its files. */
  tightest: { step: string; promptTokens: number };
}

/** The most a re-ask adds to a prompt: the error and the earlier ones, the excerpt (reask.ts) and the repair template. */
export const REASK_TOKENS = REASK_LIMITS.errorTokens + REASK_LIMITS.earlierErrors * REASK_LIMITS.earlierErrorTokens + REASK_LIMITS.excerptTokens + 150;
/** The most the rules of the checks after a step add to its prompt (roles/_shared/rules.hbs): the policy's lists, a check's rules. */
export const RULES_TOKENS = 480;
/**
 * How much longer a reply gets as a later prompt shows it (JSON pretty-printed, Markdown labels and
 * lists): at most this, for any artifact at the plan's caps (test/unit/capabilities/model/context-plan.test.ts attacks it).
 */
export const RENDERING = 2;
/** Characters a token of real text holds, for the string caps. */
export const CHARS_PER_TOKEN = 3;
/** Below this, a reply cannot hold even a small artifact: the model is refused. */
export const MIN_REPLY_TOKENS = 160;
/** The share of a reply one string may take. */
const STRING_SHARE = 4;
/** Tokens a file takes shown by its interface: what a step that shows files keeps room for, per file. */
export const FILE_INTERFACE_TOKENS = 256;
/** Files every step that shows files has room for at the least, by their interface (the rest by name). */
const MIN_FILES = 1;
/**
 * The smallest list cap: a list (acceptance criteria, files) of a useful artifact, even in a small context —
 * a list of files is fitted to what a prompt has room for anyway, and any other list is bounded by its reply.
 */
const MIN_LIST_ITEMS = 8;
/** The largest list cap chosen: more files than a project of one run has. */
export const MAX_ITEMS = 64;
/** Continuations of a reply of files, when the context has room for them. */
export const FILES_CONTINUATIONS = 2;

/** The plan for a context of `contextTokens` (see the module comment), or an error saying what to set. */
export function planContext(contextTokens: number, steps: readonly PlannedStep[], ceiling: { replyTokens: number; filesContinuations?: number }): ContextPlan {
  if (steps.length === 0) throw new Error('no step to plan for');
  const continuations = ceiling.filesContinuations ?? FILES_CONTINUATIONS;
  const replyWith = (files: number) => Math.min(ceiling.replyTokens, ...steps.map((step) => largestReply(step, contextTokens, continuations, files)));
  if (replyWith(MIN_FILES) < MIN_REPLY_TOKENS) throw tooSmall(contextTokens, steps, continuations);
  // As many files shown by their interface as leave every reply a sixteenth of the context (a useful
  // reply), or the ceiling; with fewer, replies grow — down to MIN_FILES.
  const target = Math.max(MIN_REPLY_TOKENS, Math.min(ceiling.replyTokens, Math.floor(contextTokens / 16)));
  let files = MAX_ITEMS;
  while (files > MIN_FILES && replyWith(files) < target) files--;
  const reply = replyWith(files);
  const withFiles = steps.filter((step) => step.perFile > 0);
  const room = Math.min(...withFiles.map((step) => (contextTokens - promptBound(step, reply, continuations)) / step.perFile));
  const tightest = steps
    .map((step) => ({ step: step.name, promptTokens: promptBound(step, reply, continuations) }))
    .reduce((a, b) => (b.promptTokens > a.promptTokens ? b : a));
  return {
    contextTokens,
    replyTokens: reply,
    maxItems: withFiles.length === 0 ? MAX_ITEMS : Math.max(MIN_LIST_ITEMS, Math.min(MAX_ITEMS, Math.floor(room / FILE_INTERFACE_TOKENS))),
    maxStringChars: Math.max(16, Math.floor((reply * CHARS_PER_TOKEN) / STRING_SHARE)),
    maxContinuations: 0,
    filesContinuations: continuations,
    tightest,
  };
}

/** The tokens a step's reply is kept: a reply of files with its continuations, any other one request's. */
export const replyRoom = (step: PlannedStep, reply: number, continuations: number): number => reply * (1 + (step.files ? continuations : 0));

/**
 * The largest prompt a step can have under a plan before its files, with the room kept for its reply:
 * fixed text, rules, a re-ask, the replies its views carry as shown.
 */
export const promptBound = (step: PlannedStep, reply: number, continuations = 0): number =>
  Math.ceil(step.fixedTokens + RULES_TOKENS + REASK_TOKENS + RENDERING * reply * step.replies + replyRoom(step, reply, continuations));

/** The largest reply that leaves the step its prompt, its reply and, when it shows files, room for `files` of them by their interface. */
function largestReply(step: PlannedStep, context: number, continuations: number, files: number): number {
  const room = step.perFile * files * FILE_INTERFACE_TOKENS;
  const perReply = RENDERING * step.replies + 1 + (step.files ? continuations : 0);
  return Math.floor((context - step.fixedTokens - RULES_TOKENS - REASK_TOKENS - room) / perReply);
}

function tooSmall(contextTokens: number, steps: readonly PlannedStep[], continuations: number): SopworksError {
  const need = (step: PlannedStep) => promptBound(step, MIN_REPLY_TOKENS, continuations) + step.perFile * MIN_FILES * FILE_INTERFACE_TOKENS;
  const worst = steps.reduce((a, b) => (need(b) > need(a) ? b : a));
  const needed = need(worst);
  return new SopworksError(
    'NO_MODEL',
    `The model's context of ${contextTokens} tokens cannot hold the SOP's largest prompt: step ${worst.name} is ${worst.fixedTokens} tokens before what it is given, ` +
      `and with replies of ${MIN_REPLY_TOKENS} tokens, a re-ask and room for ${worst.perFile > 0 ? `${MIN_FILES} files by their interface` : 'its rules'} it needs about ${needed}.`,
    {
      hint: `Set SOPWORKS_LOCAL_CONTEXT to ${Math.ceil(needed / 256) * 256} or more (memory allowing), choose a model with a larger context, or use a smaller SOP (--sops) whose steps carry less.`,
    },
  );
}
