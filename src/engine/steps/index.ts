/** engine/steps: its public face — what other folders may use of it. */
export * from './actions.ts';
export { conclude } from './conclude.ts';
export * from './core-views.ts';
export * from './guards.ts';
export type {
  ApprovalPort,
  AskRequest,
  CallMeta,
  CommandContext,
  ModelPort,
  OutputSpec,
  PolicyPort,
  PolicyRule,
  Ports,
  Progress,
  Publish,
  QuestionsRequest,
} from './ports.ts';
export { publish } from './publish.ts';
export { EachFileOutput, initialContext, type RoleContext } from './role-context.ts';
export { type CompanyFile, companyFileSchema, RoleSettings, SopFile, type StateNodeConfig } from './sop-file.ts';
export { defineAction, defineGuard, defineStep, type Entry, type GuardArgs, type StepEffect, type StepPrompt } from './step.ts';
export { stopAt } from './stop-at.ts';
export { latestOf, resolveView, type View, type ViewScope } from './views.ts';
export { entriesOf, type Kind, type Vocabulary } from './vocabulary.ts';
