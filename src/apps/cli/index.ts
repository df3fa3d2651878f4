/** apps/cli: its public face — what other folders (and the tests that run the command line in process) may use of it. */
export { commandLine, main } from './main.ts';
export { applyUserConfig, readUserConfig } from './user-config.ts';
