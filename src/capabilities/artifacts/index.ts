/** capabilities/artifacts: its public face — what other folders may use of it. */

export { addFiles } from './add-files-action.ts';
export { awaitFile } from './await-file-step.ts';
export { check } from './check-step.ts';
export { documentMarkdown } from './document-markdown.ts';
export { eachFile } from './each-file-step.ts';
export { planningMarkdown } from './markdown-of.ts';
export * from './message-types.ts';
export { queueBugFiles, queueTasks } from './queue-actions.ts';
export { documentLine } from './render/outcome-detail.ts';
export { renderPrd } from './render/prd.ts';
export * from './views.ts';
