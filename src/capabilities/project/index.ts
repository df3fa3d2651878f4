/** capabilities/project: its public face — what other folders may use of it. */
export { dependencyRegistries } from './dependency-registries.ts';
export { fastCheck } from './fast-check-step.ts';
export { installDependencies } from './install-dependencies-step.ts';
export { Dependencies } from './message-types.ts';
export { describeFigures, runFigures, RunFigures } from './run-figures.ts';
export { runProgram } from './run-program-step.ts';
export { placeholdersIn } from './completeness.ts';
