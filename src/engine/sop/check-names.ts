/**
 * Checks the names a SOP's steps use for values: every name handed to a template (`with`), put in a
 * payload (`payload`, `fields`) or appended to an outcome (`detail`) is a view or a slot the SOP keeps;
 * guards and actions that read a slot read one that is kept; `hasPublished` names a message type.
 */
import { messageTypes } from '../../company/message-types.ts';
import { sopError, sopWarning, type Diagnostic } from './diagnostic.ts';
import type { SopFile } from './sop-file.ts';
import { keptSlots, referencesOf, stepsOf, type YamlPath } from './sop-walk.ts';
import { viewNames } from '../../capabilities/artifacts/views.ts';

/** Vocabulary entries whose `slot` parameter names a slot they read. */
const SLOT_READERS = new Set(['approved', 'testsPassed', 'recordFailure']);

/** `perFile`: the SOP is run by `eachFile`, which sets its current file. */
export function checkNames(sop: SopFile, where: (at: YamlPath) => string, options: { perFile?: boolean } = {}): Diagnostic[] {
  const problems: Diagnostic[] = [];
  const slots = keptSlots(sop);
  const views = viewNames();
  const known = (name: string) => slots.has(name) || views.includes(name);
  const name = (value: string, at: YamlPath) => {
    if (known(value)) return;
    problems.push(
      sopError(
        where(at),
        `"${value}" is neither a view nor a slot this SOP keeps; use a view (${views.join(', ')})` +
          (slots.size > 0 ? ` or a kept slot (${[...slots].join(', ')})` : '') +
          `, or keep the value first with { type: keep, params: { slot: ${value} } }`,
      ),
    );
  };

  /** Views that fail when no current file is set (the `current` view itself is then null). */
  const usesCurrent = new Set(['task', 'dependencies', 'designExcerpt', 'file']);
  const setsCurrent = options.perFile === true || referencesOf(sop).some((r) => r.kind === 'action' && r.type === 'nextTask');
  for (const step of stepsOf(sop)) {
    const params = step.params;
    if (!params) continue;
    const input = [...step.at, 'input'];
    if (step.src === 'ask' || step.src === 'edit') {
      (params.with as string[]).forEach((value, i) => {
        name(value, [...input, 'with', i]);
        if (usesCurrent.has(value) && !setsCurrent && !slots.has(value)) {
          problems.push(
            sopError(
              where([...input, 'with', i]),
              `the view "${value}" is about the current file, but this SOP never sets one; add the nextTask action (after queueTasks or queueBugFiles) before this step`,
            ),
          );
        }
      });
      if (params.key === 'current' && !setsCurrent) {
        problems.push(
          sopError(
            where([...input, 'key']),
            `key: current needs a current file, but this SOP never sets one; add the nextTask action before this step, or give a fixed path as the key`,
          ),
        );
      }
    }
    if (step.src === 'publish') {
      if (typeof params.payload === 'string') name(params.payload, [...input, 'payload']);
      for (const [field, value] of Object.entries(params.fields as Record<string, string>)) name(value, [...input, 'fields', field]);
    }
    if (step.src === 'conclude' && typeof params.detail === 'string') name(params.detail, [...input, 'detail']);
  }

  for (const ref of referencesOf(sop)) {
    if (!ref.params) continue;
    if (SLOT_READERS.has(ref.type) && typeof ref.params.slot === 'string' && !slots.has(ref.params.slot)) {
      problems.push(
        sopWarning(
          where(ref.at),
          `${ref.kind} "${ref.type}" reads the slot "${ref.params.slot}", which this SOP never keeps, so it always sees nothing; keep it first, or name a kept slot`,
        ),
      );
    }
    if (ref.type === 'hasPublished' && typeof ref.params.type === 'string' && !(ref.params.type in messageTypes)) {
      problems.push(
        sopError(where([...ref.at, 'params', 'type']), `unknown message type "${ref.params.type}"; use one of ${Object.keys(messageTypes).join(', ')}`),
      );
    }
  }
  return problems;
}
