/** What every invoked step receives: its parameters (validated from the SOP file) and the role's context. */
import type { RoleContext } from '../sop/role-context.ts';

export interface StepInput<P> {
  params: P;
  context: RoleContext;
}
