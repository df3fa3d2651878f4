/**
 * A text that must start with a fixed keyword — a mermaid diagram's `classDiagram`, say — stated once as
 * a regular expression that zod checks, that travels as `pattern` in the JSON Schema a server gets, and
 * that the local engine's grammar and the reply repairs recognise by its shape. The keyword is followed
 * by the end or by a character that cannot continue a word (as `\b` would say, in a form the grammar
 * converters of servers also read).
 */

/** The pattern of a text starting with `keyword` (letters, digits, `_` and `-`). */
export function keywordPattern(keyword: string): RegExp {
  if (!/^[A-Za-z][\w-]*$/.test(keyword)) throw new Error(`not a keyword: ${keyword}`);
  return new RegExp(`^${keyword}([^A-Za-z0-9_][\\s\\S]*)?$`);
}

const SHAPE = /^\^([A-Za-z][\w-]*)\(\[\^A-Za-z0-9_\]\[\\s\\S\]\*\)\?\$$/;

/** The keyword a pattern made by `keywordPattern` requires, or null for any other pattern. */
export function keywordOfPattern(source: string): string | null {
  return SHAPE.exec(source)?.[1] ?? null;
}
