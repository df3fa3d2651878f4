/**
 * The repository's file a model most likely meant when it named one that does not exist — `README.md`
 * for `Readme.md`, `src/greet.js` for `greet.js` or `src/greet.ts` — so a refused task says which file
 * to use instead of sending the Architect off to create a second one.
 */
import { distance } from 'fastest-levenshtein';
import { git } from '../../host/git/index.ts';

/** The files git tracks in the work tree (empty when it is no git work tree): what a task may name. */
export async function trackedFiles(root: string): Promise<string[]> {
  const listed = await git(root, ['-c', 'core.quotePath=false', 'ls-files', '-z'], { okCodes: [128] }).catch(() => null);
  if (!listed || listed.code !== 0) return [];
  return listed.stdout.split('\0').filter(Boolean);
}

const baseName = (file: string): string => file.slice(file.lastIndexOf('/') + 1);

/**
 * The nearest of `files` to `missing`: the same path in another case, else the one file of that name
 * (in any case) in another folder, else the closest path by edit distance when it is close (a slip of
 * a character or two, or another extension). Null when nothing is near.
 */
export function nearestPath(missing: string, files: readonly string[]): string | null {
  const lower = missing.toLowerCase();
  const sameCase = files.find((f) => f.toLowerCase() === lower);
  if (sameCase) return sameCase;
  const named = files.filter((f) => baseName(f).toLowerCase() === baseName(lower));
  if (named.length === 1) return named[0]!;
  const limit = Math.max(2, Math.floor(missing.length / 5));
  let best: { file: string; score: number } | null = null;
  for (const file of named.length > 1 ? named : files) {
    if (Math.abs(file.length - missing.length) > limit && named.length <= 1) continue;
    const score = distance(file.toLowerCase(), lower);
    if (score <= limit && (best === null || score < best.score || (score === best.score && file < best.file))) best = { file, score };
  }
  return best?.file ?? null;
}
