/** capabilities/repository: its public face — what other folders may use of it. */
export { Materializer } from './materializer.ts';
export { STATE_DIR, Workspace } from './workspace.ts';
