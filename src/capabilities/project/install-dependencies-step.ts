/**
 * The `installDependencies` step: QA installs the project's declared dependencies before a test round,
 * through the install entry point (src/host/install/install-project.ts): the manifest and every
 * source it names checked first, then the install in the sandbox with its own network namespace and an
 * egress proxy to the configured registry as its only way out. Its output is a DependencyInstall — a
 * test round of kind `install` — so a refused or failed install goes to the Engineer as a bug report,
 * like a failing test, and a new lockfile is committed with the `Dependencies` message.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import * as S from '../../documents/index.ts';
import type { BoardReader } from '../../engine/board/index.ts';
import { defineStep } from '../../engine/steps/index.ts';
import { SopworksError } from '../../ground/errors.ts';
import {
  checkInstall,
  type InstallPlan,
  installedAlready,
  ManagerUnavailable,
  markInstalled,
  packagesWithInstallScripts,
  runInstall,
} from '../../host/install/index.ts';
import { dependencyRegistries } from './dependency-registries.ts';
import { installReport } from './install-report.ts';

export const installDependencies = defineStep({
  description:
    "Install the project's declared dependencies (package.json, requirements.txt or pyproject.toml) in the sandbox, " +
    'before the tests, if the policy lets this role install (dependencies.by). A manifest, lockfile or config file that ' +
    'names any other source than the configured registry (a path, a URL, git, an index option) is ' +
    'refused before anything runs; a project .npmrc is read as data (what redirects traffic or credentials is overridden, and named in the report). ' +
    'The install has a network namespace of its own whose only way out is an egress proxy ' +
    'to that registry (dependencies.network), install scripts are off unless dependencies.scripts allows them, packages ' +
    "come from SOPWORKS_NPM_REGISTRY / SOPWORKS_PIP_INDEX_URL / SOPWORKS_PIP_FIND_LINKS, the policy's registries or the " +
    "user's own, Python gets a .venv in the project (`keepNewLockfile: false`, a change run: a lockfile the project had none of is removed " +
    "after the install; `workspaces: true`, a change run: the repository's workspaces are installed and linked, where a new project manifest declaring them is refused; `forBase: true`: the install the base's tests run on, said as the base's, not as a round). The output is a test round of kind `install` whose `lockfile` " +
    '(package-lock.json, requirements.lock) is set when it changed: publish it as `Dependencies` to commit it, or as a ' +
    'TestReport when it failed.',
  params: z
    .object({
      timeoutMs: z.number().int().min(1000).default(300_000),
      keepNewLockfile: z.boolean().default(true),
      workspaces: z.boolean().default(false),
      /** The install the base's tests run on (a change run, before its first round): its progress says `base`, not the next round. */
      forBase: z.boolean().default(false),
    })
    .strict(),
  output: S.DependencyInstall,
  async run({ params }, ports) {
    const { policy, sandbox, repository } = ports;
    const { report } = ports.run;
    const role = ports.role.profile.id;
    const projectDir = repository.root;
    // The manifest just posted may still be on its way into the repository.
    await repository.filesOnDisk();
    const round = ports.board.all('TestReport').length + 1;
    const base = { round, outcome: null, refusals: [], notes: [], lockfile: null, scriptsSkipped: [] as string[] };
    const label = params.forBase ? 'base' : `round ${round}`;
    const progress = (detail: string) => report({ kind: 'tests-start', detail: `${label}: ${detail}` });
    const ended = (detail: string, passed: boolean) => report({ kind: 'tests-end', detail: `${label}: ${detail}`, passed });

    const check = await checkInstall({
      projectDir,
      registries: dependencyRegistries(policy),
      scripts: policy.dependencies.scripts,
      workspaces: params.workspaces,
    });
    const { plan } = check;
    const notes = [...check.notes];
    if (check.refusals.length > 0) {
      progress(`dependencies: refused before the install: ${check.refusals.length} source(s) other than the configured registry`);
      ended('dependencies not installed: the manifest names another source (see the report)', false);
      return installReport({ ...base, plan, refusals: check.refusals, notes, skipped: null });
    }
    if (!plan) return installReport({ ...base, plan: null, skipped: 'the project declares no dependencies' });
    if (!policy.dependencies.install || !policy.dependencies.by.includes(role)) {
      throw new SopworksError(
        'TEST_RUN_FAILED',
        `The project declares dependencies, but ${policy.source} does not let ${role} install them (dependencies.install: ${policy.dependencies.install}, by: ${policy.dependencies.by.join(', ') || 'nobody'}).`,
        { hint: `Set dependencies.install: true and add ${role} to dependencies.by in ${policy.source}, or ask for a project without dependencies.` },
      );
    }
    if (await installedAlready(projectDir, plan)) return installReport({ ...base, plan, notes, skipped: `${plan.lockfile}: up to date` });

    const hadLockfile = await fs
      .lstat(path.join(projectDir, plan.lockfile))
      .then(() => true)
      .catch(() => false);
    const network = policy.dependencies.network ? '' : ' (no network: the policy does not grant it)';
    progress(`installing dependencies: ${plan.shown.join(' ')}${network}`);
    for (const note of notes) progress(`note: ${note}`);
    let run: Awaited<ReturnType<typeof runInstall>>;
    try {
      // The sandbox compares the repository's git metadata before and after: no commit lands meanwhile.
      run = await repository.withCommitsHeld(() =>
        runInstall(
          { ...check, plan },
          {
            projectDir,
            registries: dependencyRegistries(policy),
            scripts: policy.dependencies.scripts,
            workspaces: params.workspaces,
            network: policy.dependencies.network,
            sandbox,
            wallSeconds: Math.ceil(params.timeoutMs / 1000),
            onNotice: (notice) => progress(notice),
          },
        ),
      );
    } catch (error) {
      const couldNotRun = managerMissing(error, plan);
      ended(`dependencies not installed${couldNotRun ? `: ${couldNotRun.message.split('\n')[0]}` : ''}`, false);
      if (!couldNotRun) throw error;
      return installReport({ ...base, plan, outcome: null, notes, skipped: null, couldNotRun });
    }
    const { outcome } = run;
    if (run.installer) notes.push(`installed with ${run.installer}`);
    if (run.allowed.length > 0) notes.push(`the install could reach only ${run.allowed.join(', ')} (through the egress proxy)`);
    // Installed only once what was installed was checked against the manifest (run.unmet).
    const passed = outcome.exitCode === 0 && !outcome.timedOut && run.unmet.length === 0;
    let lockfile: S.CodeFile | null = null;
    let scriptsSkipped: string[] = [];
    if (passed) {
      await markInstalled(projectDir, plan);
      const content = await fs.readFile(path.join(projectDir, plan.lockfile), 'utf8').catch(() => null);
      if (content !== null && content !== lastCommitted(ports.board, plan.lockfile)) lockfile = { path: plan.lockfile, content };
      if (plan.ecosystem === 'npm' && !policy.dependencies.scripts) scriptsSkipped = await packagesWithInstallScripts(projectDir);
      // A change run's install: a lockfile the project had none of is the install's, not the change's.
      if (!params.keepNewLockfile && !hadLockfile) {
        await fs.rm(path.join(projectDir, plan.lockfile), { force: true });
        lockfile = null;
      }
    }
    const install = installReport({ ...base, plan, outcome, notes, lockfile, scriptsSkipped, skipped: null, unmet: run.unmet });
    const skippedScripts = scriptsSkipped.length > 0 ? `; install scripts not run (policy): ${scriptsSkipped.join(', ')}` : '';
    ended(
      `dependencies ${passed ? `installed${lockfile ? `, ${plan.lockfile} updated` : ''}${skippedScripts}` : `not installed: ${install.failures.map((f) => f.message.split('\n')[0]).join('; ')}`}`,
      passed,
    );
    return install;
  },
});

/** No package manager to install with: a failed install round that says what to do, not a crash; null for any other error. */
function managerMissing(error: unknown, plan: InstallPlan): { name: string; message: string } | null {
  if (!(error instanceof ManagerUnavailable)) return null;
  return { name: `install: ${plan.manager?.manager ?? 'the package manager'}`, message: `${error.message} ${error.hint ?? ''}`.trim() };
}

/** The lockfile's content as last committed by a Dependencies message, or null. */
function lastCommitted(board: BoardReader, lockfile: string): string | null {
  const installs = board.all<S.DependencyInstall>('Dependencies');
  for (const message of [...installs].reverse()) if (message.payload.lockfile?.path === lockfile) return message.payload.lockfile.content;
  return null;
}
