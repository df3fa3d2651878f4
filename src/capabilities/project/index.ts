/** capabilities/project: its public face — what other folders may use of it. */

export { placeholdersIn } from '../../documents/index.ts';
export { dependencyRegistries } from './dependency-registries.ts';
export { fastCheck } from './fast-check-step.ts';
export { runFastChecks } from './fast-checks.ts';
export { installDependencies } from './install-dependencies-step.ts';
export { installReport } from './install-report.ts';
export { Dependencies } from './message-types.ts';
export { describeFigures, RunFigures, runFigures } from './run-figures.ts';
export { runProgram } from './run-program-step.ts';
export { smokeReport } from './smoke-run.ts';
