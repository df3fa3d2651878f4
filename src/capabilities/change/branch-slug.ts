/**
 * The words a change's branch is named by (`sopworks/<slug>`, and its work tree `<repo>-<slug>`): the
 * request's leading phrase, in whole words, ended where its first clause begins ("add a defu variant
 * that replaces arrays …" → `add-defu-variant`) or after a few words at most — never cut inside a word,
 * and never ending on a word that waits for the rest of its phrase (`…-accept-a`, `…-replaces`). Pure.
 */
import { transliterate } from 'transliteration';

/** Words that begin a clause: the phrase before them names the change. */
const CLAUSE = new Set([
  'that',
  'which',
  'who',
  'whose',
  'so',
  'when',
  'where',
  'whenever',
  'instead',
  'because',
  'if',
  'unless',
  'while',
  'but',
  'then',
  'without',
  'using',
  'via',
]);
/** Words left out of a name, wherever they are. */
const FILLER = new Set(['a', 'an', 'the', 'please']);
/** Words a name does not end on: the phrase they begin would be cut. */
const DANGLING = new Set([
  'to',
  'for',
  'of',
  'in',
  'on',
  'with',
  'from',
  'by',
  'as',
  'at',
  'into',
  'and',
  'or',
  'its',
  'their',
  'it',
  'be',
  'is',
  'accept',
  'accepts',
  'take',
  'takes',
  'make',
  'makes',
  'let',
  'lets',
  'replaces',
  'returns',
  'removes',
]);

const MAX_WORDS = 5;
const MAX_CHARS = 40;

export function branchSlug(request: string): string {
  const words = transliterate(request)
    .toLowerCase()
    // A call's arguments are no part of its name: "strip(text)" is "strip".
    .replace(/\([^)]*\)/g, ' ')
    .split(/[,;:!?]|\.(?:\s|$)/)[0]!
    .replace(/[^a-z0-9\s_-]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  const phrase: string[] = [];
  for (const word of words) {
    if (CLAUSE.has(word) && phrase.length > 0) break;
    if (FILLER.has(word)) continue;
    const next = [...phrase, word.replace(/_/g, '-')];
    if (next.length > MAX_WORDS || next.join('-').length > MAX_CHARS) break;
    phrase.push(word.replace(/_/g, '-'));
  }
  while (phrase.length > 1 && DANGLING.has(phrase.at(-1)!)) phrase.pop();
  return (
    phrase
      .join('-')
      .replace(/-{2,}/g, '-')
      .replace(/^-+|-+$/g, '') || 'change'
  );
}
