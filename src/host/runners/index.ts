/** host/runners: its public face — what a JavaScript project provides to run, and how the sandbox runs it. */
export { type LocalCommand, localCommand } from './local-command.ts';
export {
  JS_RUNNERS,
  NO_RUNNERS,
  type ProjectRunners,
  readProjectRunners,
  runnersFirst,
  someNames,
  type WorkspaceScripts,
  workspaceOf,
} from './project-runners.ts';
export { type RunnerForm, runnerForm } from './runner-form.ts';
export { namingTests } from './test-names.ts';
