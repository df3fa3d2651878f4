/**
 * Views: the named values a SOP step can hand to a template (`with: [prd, design]`) or put in a payload
 * (`payload: draft`). Each is derived from the role's context and the board — the board is the source
 * of truth, so a view is the same whenever it is read. A role's own slot of the same name (its draft of
 * the design, say) takes precedence over the view. The views themselves come with the vocabulary.
 */
import { SopworksError } from '../../ground/errors.ts';
import type { BoardReader } from '../board/index.ts';
import type { RoleContext } from './role-context.ts';

export interface ViewScope {
  context: RoleContext;
  board: BoardReader;
}

export interface View {
  description: string;
  /** `name`: the view's name, for an error that says which view could not be read. A promise is awaited (a view that parses source). */
  read(scope: ViewScope, name: string): unknown;
  /** The view is about the current file (it fails without one). */
  needsCurrent?: boolean;
}

/** A view that is the latest published message of a type (its payload). */
export const latestOf = (type: string, description: string): View => ({
  description,
  read: ({ board }, name) => {
    const message = board.latest(type);
    if (!message) throw new SopworksError('SOP_INVALID', `"${name}" is needed but no ${type} has been published yet.`);
    return message.payload;
  },
});

export async function resolveView(name: string, scope: ViewScope, views: Readonly<Record<string, View>>): Promise<unknown> {
  if (name in scope.context.slots) return scope.context.slots[name];
  const view = views[name];
  if (view) return await view.read(scope, name);
  throw new SopworksError('SOP_INVALID', `"${name}" is neither a view (${Object.keys(views).join(', ')}) nor a slot this role has kept.`);
}
