/**
 * The `installDependencies` step: QA installs the project's declared dependencies in the sandbox
 * before a test round (src/sandbox/install-dependencies.ts). Its output is a DependencyInstall — a
 * test round of kind `install` — so a failed install goes to the Engineer as a bug report, like a
 * failing test, and a new lockfile is committed with the `Dependencies` message.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fromPromise } from 'xstate';
import { z } from 'zod';
import { SopworksError } from '../../ground/errors.ts';
import type * as S from '../artifacts/schemas.ts';
import { dependencyRegistries } from './dependency-registries.ts';
import {
  installedAlready,
  installReport,
  ManifestProblem,
  markInstalled,
  packagesWithInstallScripts,
  planInstall,
  type InstallPlan,
} from './install-dependencies.ts';
import { runSandboxed } from '../../host/sandbox/run-sandboxed.ts';
import type { RoleServices } from '../../engine/sop/services.ts';
import type { StepInput } from '../../engine/steps/step-input.ts';

export const installDependenciesStep = {
  description:
    "Install the project's declared dependencies (package.json, requirements.txt or pyproject.toml) in the sandbox, " +
    'before the tests, if the policy lets this role install (dependencies.by): the network is open for this step alone ' +
    '(dependencies.network), install scripts are off unless dependencies.scripts allows them, packages come from ' +
    "SOPWORKS_NPM_REGISTRY / SOPWORKS_PIP_INDEX_URL / SOPWORKS_PIP_FIND_LINKS or the policy's registries, Python gets a " +
    '.venv in the project. The output is a test round of kind `install` whose `lockfile` (package-lock.json, ' +
    'requirements.lock) is set when it changed: publish it as `Dependencies` to commit it, or as a TestReport when it failed. ' +
    '`keepNewLockfile: false` (a change run) removes a lockfile the install wrote where the project had none: it never reaches the branch or the work tree.',
  params: z.object({ timeoutMs: z.number().int().min(1000).default(300_000), keepNewLockfile: z.boolean().default(true) }).strict(),
};

type Params = z.infer<typeof installDependenciesStep.params>;

export function installDependenciesActor(services: RoleServices) {
  return fromPromise<S.DependencyInstall, StepInput<Params>>(async ({ input: { params } }) => {
    const { policy, sandbox, workspace } = services;
    const role = services.profile.id;
    const projectDir = workspace.root;
    // The manifest just posted may still be on its way into the repository.
    await services.filesOnDisk();
    const round = services.board.all('TestReport').length + 1;
    const base = { round, outcome: null, problem: null, lockfile: null, scriptsSkipped: [] as string[] };

    let plan: InstallPlan | null;
    try {
      plan = await planInstall(projectDir, dependencyRegistries(policy), policy.dependencies.scripts);
    } catch (error) {
      if (!(error instanceof ManifestProblem)) throw error;
      services.report({ kind: 'tests-start', detail: `round ${round}: dependencies: ${error.message}` });
      services.report({ kind: 'tests-end', detail: `round ${round}: dependencies not installed: the manifest is wrong` });
      return installReport({ ...base, plan: null, problem: error.message, skipped: null });
    }
    if (!plan) return installReport({ ...base, plan: null, skipped: 'the project declares no dependencies' });
    if (!policy.dependencies.install || !policy.dependencies.by.includes(role)) {
      throw new SopworksError(
        'TEST_RUN_FAILED',
        `The project declares dependencies, but ${policy.source} does not let ${role} install them (dependencies.install: ${policy.dependencies.install}, by: ${policy.dependencies.by.join(', ') || 'nobody'}).`,
        { hint: `Set dependencies.install: true and add ${role} to dependencies.by in ${policy.source}, or ask for a project without dependencies.` },
      );
    }
    if (await installedAlready(projectDir, plan)) return installReport({ ...base, plan, skipped: `${plan.lockfile}: up to date` });

    const hadLockfile = await fs
      .lstat(path.join(projectDir, plan.lockfile))
      .then(() => true)
      .catch(() => false);
    services.report({
      kind: 'tests-start',
      detail: `round ${round}: installing dependencies: ${plan.shown.join(' ')}${policy.dependencies.network ? '' : ' (no network: the policy does not grant it)'}`,
    });
    let outcome: Awaited<ReturnType<typeof runSandboxed>>;
    try {
      outcome = await runSandboxed({
        argv: plan.argv,
        projectDir,
        limits: { ...sandbox.limits, wallSeconds: Math.ceil(params.timeoutMs / 1000) },
        setting: sandbox.mode,
        allowUnsandboxed: sandbox.allowUnsandboxed,
        network: policy.dependencies.network,
        onNotice: (notice) => services.report({ kind: 'tests-start', detail: `round ${round}: ${notice}` }),
      });
    } catch (error) {
      services.report({ kind: 'tests-end', detail: `round ${round}: dependencies not installed` });
      throw error;
    }
    const passed = outcome.exitCode === 0 && !outcome.timedOut;
    let lockfile: S.CodeFile | null = null;
    let scriptsSkipped: string[] = [];
    if (passed) {
      await markInstalled(projectDir, plan);
      const content = await fs.readFile(path.join(projectDir, plan.lockfile), 'utf8').catch(() => null);
      if (content !== null && content !== lastCommitted(services, plan.lockfile)) lockfile = { path: plan.lockfile, content };
      if (plan.ecosystem === 'npm' && !policy.dependencies.scripts) scriptsSkipped = await packagesWithInstallScripts(projectDir);
      if (!params.keepNewLockfile && !hadLockfile) {
        await fs.rm(path.join(projectDir, plan.lockfile), { force: true });
        lockfile = null;
      }
    }
    const report = installReport({ ...base, plan, outcome, lockfile, scriptsSkipped, skipped: null });
    const skippedScripts = scriptsSkipped.length > 0 ? `; install scripts not run (policy): ${scriptsSkipped.join(', ')}` : '';
    services.report({
      kind: 'tests-end',
      detail: `round ${round}: dependencies ${passed ? `installed${lockfile ? `, ${plan.lockfile} updated` : ''}${skippedScripts}` : `not installed: ${report.failures.map((f) => f.message).join('; ')}`}`,
    });
    return report;
  });
}

/** The lockfile's content as last committed by a Dependencies message, or null. */
function lastCommitted(services: RoleServices, lockfile: string): string | null {
  const installs = services.board.all<S.DependencyInstall>('Dependencies');
  for (const message of [...installs].reverse()) if (message.payload.lockfile?.path === lockfile) return message.payload.lockfile.content;
  return null;
}
