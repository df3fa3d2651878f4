/** host/install: its public face — what other folders may use of it. */
export { describeInstallFailure } from './install-failures.ts';
export { type InstallPlan, installedAlready, markInstalled, packagesWithInstallScripts } from './install-plan.ts';
export { checkInstall, runInstall } from './install-project.ts';
export type { UnmetDependency } from './installed-check.ts';
export { ManagerUnavailable } from './provision-manager.ts';
export { describeRefusal, type Refusal } from './refusal.ts';
export { configuredRegistries, type DependencyRegistries } from './registries.ts';
export { findWorkspaces, matchWorkspaces, type Workspace, workspacePatterns } from './workspaces.ts';
