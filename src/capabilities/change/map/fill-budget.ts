/**
 * The signatures part of the map, as aider picks its tags: every definition of every parsed file ranked
 * (what the files that use it send it, a share of its own file's rank, ten times more when the request
 * names it), then as many of the best as fit the token budget — found by halving — shown per file in
 * file order, the best file first. A definition is its header lines as written, never a body; a file
 * with no definitions is never shown whole: it is in the tree, and can be read.
 */
import { countTokens } from 'gpt-tokenizer';
import type { Definition } from './file-tags.ts';
import { nameBoost, type TermWeights } from './relevance.ts';

export interface Candidate {
  path: string;
  /** The file's own rank (rank-files.ts). */
  rank: number;
  /** A test file's definitions (its fixtures and helpers) come after the code's. */
  test: boolean;
  definitions: Definition[];
}

export interface Signatures {
  interfaces: { path: string; interface: string }[];
  /** Tokens the interfaces take (paths and the template's framing included), at most the budget. */
  tokens: number;
}

/** What the template adds around each file's block (its path line and a fence). */
const PER_FILE_TOKENS = 8;
const TEST_WEIGHT = 0.2;

interface Scored {
  path: string;
  definition: Definition;
  score: number;
}

export function fillBudget(
  candidates: readonly Candidate[],
  definitionRank: (path: string, name: string) => number,
  weights: TermWeights,
  budget: number,
): Signatures {
  const order = new Map(candidates.map((c, i) => [c.path, i]));
  const scored: Scored[] = candidates.flatMap((file) =>
    file.definitions.map((definition) => {
      const received = definitionRank(file.path, definition.name) + file.rank / file.definitions.length;
      return { path: file.path, definition, score: received * nameBoost(definition.name, weights) * (file.test ? TEST_WEIGHT : 1) };
    }),
  );
  scored.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path) || a.definition.line - b.definition.line);
  let best: Signatures = { interfaces: [], tokens: 0 };
  // A definition's line is a few tokens at least: more than budget/4 of them never fit.
  let [low, high] = [1, Math.min(scored.length, Math.ceil(budget / 4))];
  while (low <= high) {
    const count = Math.floor((low + high) / 2);
    const attempt = render(scored.slice(0, count), order);
    if (attempt.tokens <= budget) {
      best = attempt;
      low = count + 1;
    } else high = count - 1;
  }
  return best;
}

/** The chosen definitions grouped by file, files in the order given (the best-ranked first). */
function render(chosen: readonly Scored[], order: ReadonlyMap<string, number>): Signatures {
  const byFile = new Map<string, Definition[]>();
  for (const item of chosen) {
    const list = byFile.get(item.path);
    if (list) list.push(item.definition);
    else byFile.set(item.path, [item.definition]);
  }
  const interfaces = [...byFile]
    .sort(([a], [b]) => order.get(a)! - order.get(b)!)
    .map(([path, definitions]) => ({ path, interface: renderDefinitions(definitions) }));
  const tokens = interfaces.reduce((sum, i) => sum + PER_FILE_TOKENS + countTokens(i.path) + countTokens(i.interface), 0);
  return { interfaces, tokens };
}

/** Header lines in file order, with `⋮` where lines are skipped. */
export function renderDefinitions(definitions: readonly Definition[]): string {
  const lines = new Map<number, string>();
  for (const definition of definitions) definition.header.forEach((text, i) => lines.set(definition.line + i, text));
  const rows = [...lines.keys()].sort((a, b) => a - b);
  const out: string[] = [];
  rows.forEach((row, i) => {
    if (i > 0 && row !== rows[i - 1]! + 1) out.push('⋮');
    out.push(lines.get(row)!);
  });
  return out.join('\n');
}
