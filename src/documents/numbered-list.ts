/**
 * Lists sopworks numbers itself (a PRD's acceptance criteria AC-1, AC-2 …; a change's KW-1 …): the id is
 * the item's place in its list, added when the list is shown. The schema's description says so, and a
 * reply that numbered them anyway has the label taken off when it is read — only the very label sopworks
 * adds at that place (a different one is the model's text, kept), so "AC-1: AC-1: …" is never shown.
 */
import { z } from 'zod';

/** The rule a numbered list keeps, as its schema's description states it. */
export const numberingRule = (prefix: string): string => `sopworks labels them ${prefix}-1, ${prefix}-2, … itself: write each text alone`;

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `text` without a leading `label` (AC-3) in the forms models write it: `AC-3:`, `AC-3 -`, `AC-3.`,
 * `AC-3)`, `[AC-3]`, `**AC-3**:`, `AC3:`, in any case; unchanged when it does not start so, or holds nothing else.
 */
export function withoutLabel(text: string, label: string): string {
  const [prefix, number] = label.split('-') as [string, string];
  const pattern = new RegExp(
    `^\\s*(\\*\\*|__)?[[(]?${escaped(prefix)}[-\\s]?0*${number}(?![0-9])[\\])]?(\\*\\*|__)?\\s*(?:[:.)\\-–—]|(?<=[\\])*_]))\\s*(\\*\\*|__)?\\s*`,
    'i',
  );
  const rest = text.replace(pattern, '').trim();
  return rest === '' || rest === text.trim() ? text : rest;
}

/** A list of non-empty texts that sopworks numbers `prefix`-n: the rule in its description, a label it would add taken off. */
export const numberedTexts = (prefix: string, what: string, min = 0) =>
  z
    .array(z.string().trim().min(1, `${what} must not be empty`))
    .min(min)
    .transform((items) => items.map((item, index) => withoutLabel(item, `${prefix}-${index + 1}`)))
    .describe(numberingRule(prefix));
