/**
 * The one place where a project's manifests turn into an action on the host: installing its declared
 * dependencies. General — a project folder, its manifests, the registries to install from — so a
 * generated project and a repository handed to `change` go the same way:
 *
 * 1. the manifest is read (install-plan.ts) and every source it, its lockfile and its config files
 *    name is checked (manifest-refusals.ts): anything but the configured registry refuses the install
 *    before it runs, naming file:line, what was found and what to do;
 * 2. an egress proxy is started for this install alone (host/egress/), allowing only the registry of
 *    the ecosystem being installed, and carrying the user's CA, proxy and credentials upstream;
 * 3. the installer — npm or python3 of this machine, found outside the project before the sandbox
 *    starts (installer-programs.ts) — runs in the sandbox with nothing of the project on its PATH, in a
 *    network namespace of its own (never the host's network — refused where no namespace can be made),
 *    its only way out the proxy;
 * 4. the proxy stops; what it refused becomes `network` violations of the outcome;
 * 5. what was installed is checked against the manifest (installed-check.ts): a declared dependency
 *    missing, or at a version outside its range, fails the install, naming the package;
 * 6. outside bubblewrap, a Python venv's links are made again in the project (venv-relink.ts).
 */
import { describeOrigin, type EgressProxy, type EgressRequest, startEgressProxy } from '../egress/index.ts';
import { runSandboxed, type SandboxOutcome, type SandboxSettings } from '../sandbox/index.ts';
import { ignoredConfigs } from './ignored-configs.ts';
import { describeInstallFailure } from './install-failures.ts';
import { type InstallPlan, ManifestProblem, planInstall } from './install-plan.ts';
import { readInstalledCheck, UNCHECKED, type UnmetDependency } from './installed-check.ts';
import { installerCommand } from './installer-programs.ts';
import { findManagerProgram, type ManagerProgram } from './manager-program.ts';
import { manifestRefusals } from './manifest-refusals.ts';
import { checkNodeInstall } from './node-installed-check.ts';
import { manifestsOf, nodeContext } from './node-manifests.ts';
import { describeSetting } from './npmrc-settings.ts';
import type { ManagerChoice } from './package-manager.ts';
import { provisionManager, type ToolInstall } from './provision-manager.ts';
import { describeRefusal, type Refusal } from './refusal.ts';
import { allowedOrigins, type DependencyRegistries, egressRegistries, type ResolvedRegistries, resolveRegistries } from './registries.ts';
import { readUserRegistrySettings, type UserRegistrySettings } from './user-registry-settings.ts';
import { relinkVenv } from './venv-relink.ts';

export interface InstallRequest {
  projectDir: string;
  registries: DependencyRegistries;
  /** Let packages' install and build scripts run (the policy's dependencies.scripts). */
  scripts: boolean;
  /** Let the install reach its registry at all (the policy's dependencies.network); else no way out. */
  network: boolean;
  sandbox: SandboxSettings;
  wallSeconds: number;
  /** Exactly as the lockfile says (`npm ci`): a repository's base. */
  frozen?: boolean;
  /** Install a repository's workspaces with it (a change run); otherwise a manifest declaring them is refused. */
  workspaces?: boolean;
  /** The user's environment, whose registry settings the proxy carries; default: this process's. */
  env?: NodeJS.ProcessEnv;
  onNotice?: (notice: string) => void;
}

export interface InstallCheck {
  plan: InstallPlan | null;
  /** Refused before anything ran: the manifest does not parse, or names another source. */
  refusals: Refusal[];
  /** Config files that name sources but that the install does not read, said so. */
  ignored: string[];
  /** The ignored configs and the user's settings that are not carried, for this ecosystem: said in the report. */
  notes: string[];
  registries: ResolvedRegistries;
  user: UserRegistrySettings;
}

export interface InstallRun {
  outcome: SandboxOutcome;
  /** Every request the egress proxy saw. */
  egress: EgressRequest[];
  /** The origins it allowed, as a person reads them. */
  allowed: string[];
  /**
   * Declared dependencies that the install, though it exited 0, did not satisfy (installed-check.ts):
   * the install passed only when this is empty.
   */
  unmet: UnmetDependency[];
  /** The package manager that ran and where it came from (pnpm, Yarn), for the report; null for npm and pip. */
  installer: string | null;
}

/** Reads the manifest and checks every source it names; runs nothing. */
export async function checkInstall(
  request: Pick<InstallRequest, 'projectDir' | 'registries' | 'scripts' | 'frozen' | 'workspaces' | 'env'>,
): Promise<InstallCheck> {
  const user = readUserRegistrySettings(request.env ?? process.env);
  const registries = resolveRegistries(request.registries, user);
  let plan: InstallPlan | null;
  try {
    plan = await planInstall(request.projectDir, registries, {
      scripts: request.scripts,
      frozen: request.frozen ?? false,
      workspaces: request.workspaces ?? false,
    });
  } catch (error) {
    if (!(error instanceof ManifestProblem)) throw error;
    const file = /^(\S+?)(:| is)/.exec(error.message)?.[1] ?? 'the manifest';
    return { plan: null, refusals: [{ file, line: null, found: file, why: error.message, fix: 'fix the manifest' }], ignored: [], notes: [], registries, user };
  }
  if (!plan) return { plan, refusals: [], ignored: [], notes: [], registries, user };
  const ignored = ignoredConfigs(request.projectDir, plan.ecosystem, plan.manager?.manager);
  // The user's settings of the other ecosystem say nothing about this install.
  const other = plan.ecosystem === 'npm' ? 'pip ' : 'npm ';
  return {
    plan,
    refusals: await manifestRefusals(request.projectDir, plan, registries, { workspaces: request.workspaces ?? false }),
    ignored,
    notes: [...plan.settings.map(describeSetting), ...(plan.python?.notes ?? []), ...ignored, ...user.notes.filter((note) => !note.startsWith(other))],
    registries,
    user,
  };
}

/** Runs a checked plan (no refusals) in the sandbox, through an egress proxy of its own. */
export async function runInstall(check: InstallCheck & { plan: InstallPlan }, request: InstallRequest): Promise<InstallRun> {
  const allow = allowedOrigins(check.registries, check.plan.ecosystem);
  const env = request.env ?? process.env;
  // Before this install's proxy starts: fetching a package manager is an install of its own.
  const command = await installerCommand(check.plan, request.projectDir, env.PATH ?? '', (choice) => obtainManager(choice, check, request));
  let proxy: EgressProxy | null = null;
  try {
    if (request.network) {
      proxy = await startEgressProxy({
        registries: egressRegistries(check.registries, check.plan.ecosystem, check.plan.manager?.manager ?? null),
        upstream: { ...check.user.upstream, credentials: [...check.registries.credentials, ...check.user.upstream.credentials] },
      });
    }
    const outcome = await runSandboxed({
      argv: command.argv,
      installer: true,
      programRoots: command.programRoots,
      projectDir: request.projectDir,
      limits: { ...request.sandbox.limits, wallSeconds: request.wallSeconds },
      setting: request.sandbox.mode,
      allowUnsandboxed: request.sandbox.allowUnsandboxed,
      ownNetwork: { egress: proxy ? { socketPath: proxy.socketPath, caFile: proxy.caFile } : null },
      ...(request.onNotice ? { onNotice: request.onNotice } : {}),
    });
    const egress = proxy?.requests() ?? [];
    const allowed = allow.map(describeOrigin);
    const evidence = egressEvidence(outcome, egress, allowed);
    const installed = readInstalledCheck(outcome.output, check.plan.manifest);
    outcome.output = installed.output;
    const ran = outcome.exitCode === 0 && !outcome.timedOut;
    // Outside bubblewrap the venv was made in a scratch copy, whose links did not come back.
    if (ran && check.plan.ecosystem === 'python' && outcome.mode !== 'bubblewrap') {
      for (const problem of await relinkVenv(request.projectDir, command.argv[0]!)) outcome.violations.push({ kind: 'symlink', detail: problem });
    }
    const unmet = !ran
      ? []
      : check.plan.wrapper
        ? checkNodeInstall(await manifestsOf(check.plan, request.projectDir), nodeContext(check.plan, request.projectDir))
        : (installed.unmet ?? [UNCHECKED]);
    if (evidence.length > 0) outcome.output = `${outcome.output.replace(/\n?$/, '\n')}${evidence.join('\n')}\n`;
    return { outcome, egress, allowed: request.network ? allowed : [], unmet, installer: command.note };
  } finally {
    await proxy?.stop();
  }
}

/**
 * The proxy's refusals become the outcome's `network` violations, and what it saw goes with the
 * installer's output: npm and pip say "502" or "403", not why.
 */
function egressEvidence(outcome: SandboxOutcome, egress: EgressRequest[], allowed: string[]): string[] {
  for (const refused of egress.filter((entry) => !entry.allowed)) {
    outcome.violations.push({ kind: 'network', detail: `refused by the egress proxy: ${refused.request} (${refused.result}; allowed: ${allowed.join(', ')})` });
  }
  return egress
    .filter((entry) => !entry.allowed || entry.result.startsWith('failed: '))
    .slice(0, 10)
    .map((entry) =>
      entry.allowed
        ? `sopworks egress proxy: could not reach ${entry.request}: ${entry.result.slice('failed: '.length)}`
        : `sopworks egress proxy: refused ${entry.request}: ${entry.result}`,
    );
}

/**
 * The pnpm or Yarn a plan needs: on PATH or in sopworks' cache, else fetched now — by an install of
 * its own, through the same step, from the same registry (provision-manager.ts).
 */
async function obtainManager(choice: ManagerChoice, check: InstallCheck, request: InstallRequest): Promise<ManagerProgram> {
  const env = request.env ?? process.env;
  const found = await findManagerProgram(choice, request.projectDir, env);
  if (found) return found;
  const install: ToolInstall = async (projectDir) => {
    if (!request.network) return { passed: false, said: 'the policy does not let the install reach a registry (dependencies.network: false)' };
    const tool = await checkInstall({ projectDir, registries: request.registries, scripts: false, env });
    if (!tool.plan || tool.refusals.length > 0) return { passed: false, said: tool.refusals.map(describeRefusal).join('; ') };
    const run = await runInstall({ ...tool, plan: tool.plan }, { ...request, projectDir, scripts: false, frozen: false, workspaces: false });
    const passed = run.outcome.exitCode === 0 && !run.outcome.timedOut && run.unmet.length === 0;
    const said = describeInstallFailure(run.outcome.output, run.outcome.exitCode, run.outcome.timedOut)
      .map((f) => f.message.split('\n').join(' '))
      .join('; ');
    return { passed, said: passed ? '' : said };
  };
  return provisionManager(choice, env, install, check.registries.npm);
}
