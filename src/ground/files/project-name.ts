/** A project's folder name: made from a spec, or checked when a person gives one. */
import { transliterate } from 'transliteration';
import { SopworksError } from '../errors.ts';

export const PROJECT_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/**
 * A project name from a spec: its first few meaningful words, kebab-case — in any script, transliterated
 * to Latin letters by a kept library (`Wörterzähler` → `worterzahler`, `счётчик слов` → `schyotchik-slov`,
 * `统计词频` → `tong-ji-ci-pin`) rather than its letters dropped.
 */
export function projectNameFromSpec(spec: string): string {
  const stop = new Set(['a', 'an', 'the', 'that', 'which', 'for', 'of', 'in', 'to', 'and', 'with', 'on']);
  const words = transliterate(spec)
    .toLowerCase()
    .replace(/[^a-z0-9\s-]/g, ' ')
    .split(/\s+/)
    .filter((w) => w && !stop.has(w));
  return words.slice(0, 4).join('-').slice(0, 48).replace(/-+$/, '') || 'project';
}

/**
 * A name made of any text (a folder's, a branch's, a project name with doubled dashes): lower case, every
 * run of other characters than letters, digits, dots, dashes and underscores one dash, no dash or dot at
 * the start and no dash at the end; `fallback` when nothing is left.
 */
export function slugOf(text: string, fallback: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/-{2,}/g, '-')
      .replace(/^[^a-z0-9]+/, '')
      .replace(/-+$/, '') || fallback
  );
}

export function checkProjectName(name: string): string {
  if (!PROJECT_NAME.test(name)) {
    throw new SopworksError('USAGE', `Invalid project name "${name}".`, {
      hint: 'Use lower-case letters, digits, dots, dashes and underscores (up to 64), starting with a letter or digit.',
    });
  }
  return name;
}
