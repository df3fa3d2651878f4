/** A person's decision on an artifact held back for approval, as a board message the client posts. */
import * as S from '../../documents/schemas.ts';
import { defineMessage } from '../../engine/board/message-type.ts';

export const Approval = defineMessage({
  schema: S.Approval,
  description:
    "A person's decision on an artifact held back by `awaitApproval` (`role`, `gate`, `key`, `round`, `approved`, `feedback`); posted by the client.",
});
