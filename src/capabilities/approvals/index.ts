/** capabilities/approvals: its public face — what other folders may use of it. */
export {
  type AnswerPerson,
  ApprovalDesk,
  type ApprovalPolicy,
  type ApprovalRequest,
  type AskPerson,
  approvalsOf,
  GATES,
  type Gate,
  parseWaiting,
  pendingFile,
  questionsOf,
  readOpenQuestions,
  readPending,
} from './approval-desk.ts';
export { awaitApproval } from './await-approval-step.ts';
export { clarify } from './clarify-step.ts';
export { Answers, Approval } from './message-types.ts';
export { recordAnswers } from './record-answers.ts';
export { describeQuestions, describeRequest, recordDecision } from './record-decision.ts';
