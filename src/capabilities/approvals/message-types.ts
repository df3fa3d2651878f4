/** What a person says in a run, as board messages the client posts: a decision on an artifact held back for approval, answers to a role's questions. */
import * as S from '../../documents/index.ts';
import { defineMessage } from '../../engine/board/index.ts';

export const Approval = defineMessage({
  schema: S.Approval,
  description:
    "A person's decision on an artifact held back by `awaitApproval` (`role`, `gate`, `key`, `round`, `approved`, `feedback`); posted by the client.",
});

export const Answers = defineMessage({
  schema: S.Answers,
  description:
    "A person's answers to the questions a role asked before it wrote (`clarify`, `--clarify`): `role`, `round`, and each question with its `answer` (empty: no preference); posted by the client.",
});
