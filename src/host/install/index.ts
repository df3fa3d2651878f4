/** host/install: its public face — what other folders may use of it. */
export { describeInstallFailure } from './install-failures.ts';
export type { UnmetDependency } from './installed-check.ts';
export { installedAlready, type InstallPlan, markInstalled, packagesWithInstallScripts } from './install-plan.ts';
export { checkInstall, runInstall } from './install-project.ts';
export { describeRefusal, type Refusal } from './refusal.ts';
export { configuredRegistries, type DependencyRegistries } from './registries.ts';
