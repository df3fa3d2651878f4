/**
 * Checks the names a SOP's steps use for values: every name a step's parameters give as a view (handed
 * to a template, put in a payload, appended to an outcome) is a view or a slot the SOP keeps; a view about
 * the current file, or a key `current`, needs a SOP that sets one; guards and actions that read a slot
 * read one that is kept; a message type named is one the board knows. Which parameters name what, each
 * vocabulary entry says (its `names`).
 */

import type { SopFile, Vocabulary } from '../steps/index.ts';
import { type Diagnostic, sopError, sopWarning } from './diagnostic.ts';
import { keptSlots, referencesOf, stepsOf, type YamlPath } from './sop-walk.ts';

/** The names a parameter holds (one, a list, or a map of them), each with where it is. */
function namesIn(value: unknown, at: YamlPath): { name: string; at: YamlPath }[] {
  if (typeof value === 'string') return [{ name: value, at }];
  if (Array.isArray(value)) return value.flatMap((item, i) => (typeof item === 'string' ? [{ name: item, at: [...at, i] }] : []));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => (typeof item === 'string' ? [{ name: item, at: [...at, key] }] : []));
  }
  return [];
}

/** `perFile`: the SOP is run by `eachFile`, which sets its current file. */
export function checkNames(sop: SopFile, where: (at: YamlPath) => string, vocabulary: Vocabulary, options: { perFile?: boolean } = {}): Diagnostic[] {
  const problems: Diagnostic[] = [];
  const slots = keptSlots(sop, vocabulary);
  const views = Object.keys(vocabulary.views);
  const known = (name: string) => slots.has(name) || views.includes(name);
  const references = referencesOf(sop, vocabulary);
  const setsCurrent = options.perFile === true || references.some((r) => r.kind === 'action' && vocabulary.actions[r.type]?.names?.setsCurrent);

  for (const step of stepsOf(sop, vocabulary)) {
    const names = vocabulary.steps[step.src]?.names;
    if (!step.params || !names) continue;
    const input = [...step.at, 'input'];
    for (const param of names.views ?? []) {
      for (const { name, at } of namesIn(step.params[param], [...input, param])) {
        if (!known(name)) problems.push(sopError(where(at), unknownName(name, views, slots)));
        else if (vocabulary.views[name]?.needsCurrent && !setsCurrent && !slots.has(name)) {
          problems.push(
            sopError(
              where(at),
              `the view "${name}" is about the current file, but this SOP never sets one; add the nextTask action (after queueTasks or queueBugFiles) before this step`,
            ),
          );
        }
      }
    }
    if (names.currentKey && step.params[names.currentKey] === 'current' && !setsCurrent) {
      problems.push(
        sopError(
          where([...input, names.currentKey]),
          `key: current needs a current file, but this SOP never sets one; add the nextTask action before this step, or give a fixed path as the key`,
        ),
      );
    }
  }

  for (const ref of references) {
    const names = (ref.kind === 'action' ? vocabulary.actions : vocabulary.guards)[ref.type]?.names;
    if (!ref.params || !names) continue;
    const slot = names.readsSlot ? ref.params[names.readsSlot] : undefined;
    if (typeof slot === 'string' && !slots.has(slot)) {
      problems.push(
        sopWarning(
          where(ref.at),
          `${ref.kind} "${ref.type}" reads the slot "${slot}", which this SOP never keeps, so it always sees nothing; keep it first, or name a kept slot`,
        ),
      );
    }
    const type = names.messageType ? ref.params[names.messageType] : undefined;
    if (typeof type === 'string' && !(type in vocabulary.messages)) {
      problems.push(
        sopError(where([...ref.at, 'params', names.messageType!]), `unknown message type "${type}"; use one of ${Object.keys(vocabulary.messages).join(', ')}`),
      );
    }
  }
  return problems;
}

const unknownName = (value: string, views: readonly string[], slots: ReadonlySet<string>): string =>
  `"${value}" is neither a view nor a slot this SOP keeps; use a view (${views.join(', ')})` +
  (slots.size > 0 ? ` or a kept slot (${[...slots].join(', ')})` : '') +
  `, or keep the value first with { type: keep, params: { slot: ${value} } }`;
