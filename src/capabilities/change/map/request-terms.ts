/**
 * The words of a change request that can point at files: split as identifiers are (`--durations`,
 * `parseArgs`, `word_count`), lower-cased, reduced to a crude stem (a plural's `s`) and without the words
 * every request has ("add", "make", "the"). A path, a definition's name or a file's text is matched
 * against them the same way (rank-files.ts).
 */

const STOP = new Set(
  (
    'a an and any are as at be but by can could do does each for from has have how if in into is it its let lets make ' +
    'makes may more most must new no not of on one only or other our out over same should so some such than that the ' +
    'their them then there these they this those to too under up use used uses using via was we were what when where ' +
    'which while who why will with would you your add adds added change changes changed support supports allow allows ' +
    'also option options flag flags instead now well just like please file files code accept accepts take takes give gives'
  ).split(' '),
);

/** Lower-case sub-words of an identifier or path segment: `parseHTTPHeader_v2` → parse, http, header, v2. */
export function subWords(identifier: string): string[] {
  return identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * A light stem, so the forms of a word meet: decoder, decode, decoding, decoded → decod; keys → key;
 * durations → duration. Crude next to Porter's, and enough to match a request's words to names.
 */
export function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  for (const suffix of ['ing', 'ed', 'er', 'e']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) return w.slice(0, -suffix.length);
  }
  return w;
}

/** The request's distinct stemmed words that can name code: three letters or more, no stop words, no bare numbers. */
export function requestTerms(request: string): string[] {
  const words = request.split(/[^A-Za-z0-9_]+/).flatMap(subWords);
  return [...new Set(words.filter((w) => w.length >= 3 && !STOP.has(w) && !/^\d+$/.test(w)).map(stem))];
}

/** The stemmed sub-words of a name or path, as a set to match terms against. */
export const wordSet = (...names: string[]): Set<string> => new Set(names.flatMap(stemmedWords));

/** Names recur across a repository's files: each is split once. Bounded, for a long-lived process. */
const split = new Map<string, string[]>();
function stemmedWords(name: string): string[] {
  let words = split.get(name);
  if (!words) {
    if (split.size > 200_000) split.clear();
    words = subWords(name).map(stem);
    split.set(name, words);
  }
  return words;
}

/**
 * How often each of the terms occurs among a file's referenced names, as a stemmed sub-word
 * (`config.option.durations` counts for duration): counts in the terms' order. Only the terms are
 * counted — a file's names hold thousands of other words the ranking never asks about. `seen` carries
 * each name's terms from one file to the next (most names recur, and most hold no term).
 */
export function termUses(
  references: readonly (readonly [string, number])[],
  terms: readonly string[],
  seen: Map<string, readonly number[]> = new Map(),
): number[] {
  const counts = terms.map(() => 0);
  for (const [name, count] of references) {
    let hits = seen.get(name);
    if (!hits) {
      const words = stemmedWords(name);
      hits = terms.flatMap((term, t) => (words.includes(term) ? [t] : []));
      seen.set(name, hits);
    }
    for (const t of hits) counts[t]! += count;
  }
  return counts;
}
