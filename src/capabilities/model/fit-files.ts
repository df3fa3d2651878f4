/**
 * A prompt's files fitted to the model's context window. A step whose views carry a list of files (QA's
 * carries every file of the project, and the tests) has whatever room its prompt leaves (context-plan.ts);
 * when the files do not fit it, the largest are shown by their interface instead of whole, then by their
 * name alone, until the prompt and its reply fit — never cut mid-file, and each says so. Only lists of
 * files are fitted: what else a prompt carries is bounded by the plan. Deterministic: the same variables
 * and room give the same prompt.
 */
import { codeInterface } from '../../documents/index.ts';
import { replyAllowanceOf } from './context-fit.ts';
import { REASK_TOKENS } from './context-plan.ts';
import type { ChatMessage, ModelRoute, ReplyShape } from './provider.ts';
import { countPromptTokens, countTextTokens } from './token-count.ts';

/** A file a view carries whole: `path` and `content`. */
interface FileEntry {
  path: string;
  content: string;
}

const isFileEntry = (value: unknown): value is FileEntry =>
  typeof value === 'object' && value !== null && typeof (value as FileEntry).path === 'string' && typeof (value as FileEntry).content === 'string';

/** The lists of files among a prompt's variables (a view's value, or a field of one: `tests.files`), by reference. */
function fileLists(value: unknown, depth = 0): FileEntry[][] {
  if (Array.isArray(value)) return value.length > 0 && value.every(isFileEntry) ? [value] : [];
  if (depth >= 2 || typeof value !== 'object' || value === null) return [];
  return Object.values(value).flatMap((field) => fileLists(field, depth + 1));
}

/** What stands for a file shown by its interface, or by its name alone. */
const byInterface = (iface: string): string => `⋮ (the whole file does not fit the model's context: its interface)\n${iface.trimEnd()}\n`;
const byName = (lines: number): string => `⋮ (left out: its ${lines} lines do not fit the model's context)\n`;

export interface FittedFiles {
  variables: Record<string, unknown>;
  /** The files shown by their interface, and those left out, by path. */
  byInterface: string[];
  leftOut: string[];
}

/**
 * `variables` with their files shown whole while the prompt fits — `overflow` says by how many tokens it
 * does not (0 or less: it fits) — then the largest shown by their interface, then by name alone, as few
 * as it takes: each round changes files until what they save covers the overflow, then measures again.
 * Unchanged (the same object) when they fit.
 */
export async function fitFiles(
  variables: Record<string, unknown>,
  overflow: (variables: Record<string, unknown>) => number,
  countTokens: (text: string) => number,
): Promise<FittedFiles> {
  let over = overflow(variables);
  if (over <= 0 || fileLists(variables).length === 0) return { variables, byInterface: [], leftOut: [] };
  const copy = structuredClone(variables);
  const entries = fileLists(copy)
    .flat()
    .sort((a, b) => b.content.length - a.content.length || a.path.localeCompare(b.path));
  const lines = new Map(entries.map((entry) => [entry, entry.content.split('\n').length]));
  const fitted: FittedFiles = { variables: copy, byInterface: [], leftOut: [] };
  const passes: [(entry: FileEntry) => Promise<string>, string[]][] = [
    [async (entry) => byInterface(await codeInterface(entry.path, entry.content)), fitted.byInterface],
    [async (entry) => byName(lines.get(entry)!), fitted.leftOut],
  ];
  for (const [shorten, names] of passes) {
    let saved = 0;
    for (const entry of entries) {
      const before = countTokens(entry.content);
      entry.content = await shorten(entry);
      names.push(entry.path);
      saved += before - countTokens(entry.content);
      if (saved < over) continue;
      over = overflow(copy);
      if (over <= 0) return fitted;
      saved = 0;
    }
    // Measured again before the next pass: what this one saved is now known, not estimated.
    over = overflow(copy);
    if (over <= 0) return fitted;
  }
  return fitted;
}

/**
 * Whether a route's cache makes the run's documents whole in every request (the cacheable start) cheaper
 * than each step's own excerpts of them: unless a cached prompt token is known to cost more than a quarter
 * of an uncached one (gpt-4o and gpt-4o-mini: half), where the excerpts cost fewer effective input tokens.
 * A quarter or less (gpt-4.1, gpt-5), nothing, or a cached price not known (a server of one's own, the
 * local engine, a price set without one) keeps them (docs/performance.md, "Prompt caches").
 */
export function cacheRewardsDocuments(route: ModelRoute): boolean {
  const cached = route.price?.cachedInputPerMTok;
  if (route.price === null || cached === undefined || route.price.inputPerMTok === 0) return true;
  return cached / route.price.inputPerMTok <= 0.25;
}

/**
 * The variables of a call fitted to the smallest context window among the models that may answer it
 * (unchanged when none is known): room for the prompt, its reply and a re-ask's additions.
 */
export async function fittedVariables(
  request: { output?: ReplyShape; variables: Record<string, unknown> },
  chain: readonly ModelRoute[],
  render: (variables: Record<string, unknown>) => readonly ChatMessage[],
): Promise<Record<string, unknown>> {
  const { documents, ...scoped } = request.variables;
  const opening = documents !== undefined && chain.every(cacheRewardsDocuments) ? request.variables : scoped;
  const windowed = chain.filter((route) => route.provider.contextWindow !== undefined);
  if (windowed.length === 0) return opening;
  const route = windowed.reduce((a, b) => (b.provider.contextWindow! < a.provider.contextWindow! ? b : a));
  const room = route.provider.contextWindow! - replyAllowanceOf(request, route) - REASK_TOKENS;
  const countPrompt = (messages: readonly ChatMessage[]) => route.provider.countPromptTokens?.(messages) ?? countPromptTokens(messages);
  const countText = (text: string) => route.provider.countTextTokens?.(text) ?? countTextTokens(text);
  const overflow = (variables: Record<string, unknown>) => countPrompt(render(variables)) - room;
  // The documents every request opens with (for a provider's cache) go first when the prompt is too long:
  // each step's templates then show the parts of them it needs, as the context plan counts them.
  const variables = opening.documents !== undefined && overflow(opening) > 0 ? scoped : opening;
  const fitted = await fitFiles(variables, overflow, countText);
  return fitted.variables;
}
