/** The key of a model call made by an `ask` step: the current file, a fixed path, or none. */
import type { RoleContext } from '../steps/index.ts';

export function resolveCallKey(key: string | null, context: RoleContext): string | null {
  if (key === 'current') return context.current;
  return key;
}
