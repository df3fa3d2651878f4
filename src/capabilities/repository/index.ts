/** capabilities/repository: its public face — what other folders may use of it. */
export { committed, Materializer } from './materializer.ts';
export { STATE_DIR, Workspace } from './workspace.ts';
