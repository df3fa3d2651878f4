/** host/install: its public face — what other folders may use of it. */
export { describeInstallFailure, installFailures } from './install-failures.ts';
export { type InstallPlan, installedAlready, markInstalled, packagesWithInstallScripts, planInstall } from './install-plan.ts';
export { checkInstall, type InstallRun, runInstall } from './install-project.ts';
export type { UnmetDependency } from './installed-check.ts';
export { ManifestProblem } from './manifest-problem.ts';
export { type OwnScript, ownInstallScripts } from './own-scripts.ts';
export { ManagerUnavailable } from './provision-manager.ts';
export { describeRefusal, type Refusal } from './refusal.ts';
export { configuredRegistries, type DependencyRegistries, resolveRegistries } from './registries.ts';
export { findWorkspaces, matchWorkspaces, type Workspace, workspacePatterns } from './workspaces.ts';
