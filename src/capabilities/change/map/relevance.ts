/**
 * How much a change request points at each parsed file: its words (request-terms.ts) in the file's path,
 * among its definitions' names and among the names it references — each word weighted by how few files
 * have it (a word most files share says little: inverse document frequency). The weights of the words
 * themselves (1 for the rarest) also tell the ranking how much a name that contains one matters.
 */
import type { FileTags } from './file-tags.ts';
import { termUses, wordSet } from './request-terms.ts';
import type { TaggedFile } from './tag-files.ts';
import { isTestPath } from './test-layout.ts';

export interface RankedFile {
  path: string;
  tags: FileTags;
  /** How much the request points at this file (0: not at all). */
  relevance: number;
  /** A test file weighs less than the code it tests. */
  test: boolean;
}

/** Each request word and its specificity, 0 (every file has it) to 1 (the rarest of them). */
export type TermWeights = ReadonlyMap<string, number>;

export function relevance(files: readonly TaggedFile[], terms: readonly string[]): { files: RankedFile[]; weights: TermWeights } {
  const seen = new Map<string, readonly number[]>();
  const hits = files.map((file) => {
    const pathWords = wordSet(...file.path.split('/'));
    const defined = wordSet(...file.tags.definitions.map((d) => d.name));
    const used = termUses(file.tags.references, terms, seen);
    return terms.map((term, t) => {
      const count = used[t]!;
      return (pathWords.has(term) ? 3 : 0) + (defined.has(term) ? 2 : 0) + (count > 0 ? Math.min(1, 0.5 * Math.log1p(count)) : 0);
    });
  });
  const idf = terms.map((_, t) => Math.log(1 + files.length / (1 + hits.filter((h) => h[t]! > 0).length)));
  const rarest = Math.max(1e-9, ...idf);
  return {
    files: files.map((file, i) => ({
      path: file.path,
      tags: file.tags,
      test: isTestPath(file.path),
      relevance: terms.reduce((sum, _, t) => sum + hits[i]![t]! * idf[t]!, 0),
    })),
    weights: new Map(terms.map((term, t) => [term, idf[t]! / rarest])),
  };
}

/** How much a name matters to the request: 1 + 9 × the specificity of the rarest request word in it (aider's ×10). */
export function nameBoost(name: string, weights: TermWeights): number {
  let best = 0;
  for (const word of wordSet(name)) best = Math.max(best, weights.get(word) ?? 0);
  return 1 + 9 * best;
}
