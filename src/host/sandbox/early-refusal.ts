/**
 * Whether generated code could be run here, asked before any of it exists: at start-up, from the
 * policy and flags alone (bubblewrap demanded but unusable; or neither bubblewrap nor Node's permission
 * model usable and no --allow-unsandboxed — then no project can run), and once the Design names its
 * test command (its runtime decides whether the Node fallback applies). The same choice `runSandboxed`
 * makes later (choose-mode.ts), made early so a run is refused before its model calls are paid for.
 */
import { SopworksError } from '../../ground/errors.ts';
import { type Availability, bubblewrapAvailability } from './bubblewrap.ts';
import { chooseMode } from './choose-mode.ts';
import { findCommand, runtimeByName } from './find-command.ts';
import { nodePermissionAvailability } from './probe-node-permissions.ts';
import type { SandboxSettings } from './sandbox-settings.ts';

const notNeeded: Availability = { available: false, reason: 'not needed' };

/** What the machine allows, probed once: for a decision that must not wait (sandboxRefusalNow). */
export interface SandboxFacts {
  bubblewrap: Availability;
  nodePermissions: Availability;
}

export async function sandboxFacts(sandbox: SandboxSettings): Promise<SandboxFacts> {
  const bubblewrap = sandbox.mode === 'fallback' ? notNeeded : await bubblewrapAvailability();
  // Node's permission model matters only without bubblewrap: no probe (a process) otherwise.
  const nodePermissions = bubblewrap.available ? notNeeded : await nodePermissionAvailability();
  return { bubblewrap, nodePermissions };
}

/**
 * The same decision without waiting, when the command's name tells its runtime (node, npm, python3,
 * pytest, …): the refusal, null when it would run, or undefined when only the program file can say.
 */
export function sandboxRefusalNow(argv: readonly string[], facts: SandboxFacts, sandbox: SandboxSettings): string | null | undefined {
  const runtime = runtimeByName(argv[0] ?? '');
  if (runtime === null) return undefined;
  return refusalOf({
    setting: sandbox.mode,
    bubblewrap: facts.bubblewrap,
    nodePermissions: facts.nodePermissions,
    runtime,
    allowUnsandboxed: sandbox.allowUnsandboxed,
    command: argv.join(' '),
  });
}

/** The refusal `runSandboxed` would give this command in this project, or null when it would run. */
export async function sandboxRefusal(argv: readonly string[], projectDir: string, sandbox: SandboxSettings): Promise<string | null> {
  // A command not there yet (a script the engineers will write): not knowable now; runTests will say.
  const found = await findCommand(argv, { cwd: projectDir, env: process.env }).catch(() => null);
  if (!found) return null;
  const [bubblewrap, nodePermissions] = await Promise.all([
    sandbox.mode === 'fallback' ? notNeeded : bubblewrapAvailability(),
    found.runtime === 'node' ? nodePermissionAvailability() : notNeeded,
  ]);
  return refusalOf({
    setting: sandbox.mode,
    bubblewrap,
    nodePermissions,
    runtime: found.runtime,
    allowUnsandboxed: sandbox.allowUnsandboxed,
    command: argv.join(' '),
  });
}

/**
 * At start-up: a SopworksError (exit 2, before anything is written) when no generated project could be
 * run here whatever its test command; null otherwise.
 */
export async function refuseUnsandboxableAtStart(sandbox: SandboxSettings): Promise<SopworksError | null> {
  if (sandbox.allowUnsandboxed) return null;
  const bubblewrap = sandbox.mode === 'fallback' ? notNeeded : await bubblewrapAvailability();
  if (bubblewrap.available) return null;
  const bwrapReason = sandbox.mode === 'fallback' ? 'SOPWORKS_SANDBOX=fallback' : bubblewrap.reason;
  if (sandbox.mode === 'bubblewrap') {
    return new SopworksError(
      'CONFIG_INVALID',
      `The sandbox must be bubblewrap (SOPWORKS_SANDBOX=bubblewrap), but ${bwrapReason}: no generated code could be run, so the run is refused before it starts.`,
      {
        hint: 'Install bubblewrap (e.g. apt-get install bubblewrap), or set SOPWORKS_SANDBOX=auto to accept the weaker fallback for Node projects.',
      },
    );
  }
  const nodePermissions = await nodePermissionAvailability();
  if (nodePermissions.available) return null;
  return new SopworksError(
    'CONFIG_INVALID',
    `No sandbox is usable here (${bwrapReason}; Node's permission model: ${nodePermissions.reason}): no generated code could be run, so the run is refused before it starts.`,
    {
      hint: 'Install bubblewrap (e.g. apt-get install bubblewrap); or, knowing that the generated code then runs with your rights, pass --allow-unsandboxed.',
    },
  );
}

/** The refusal chooseMode gives, as one line with its hint, or null when the command would run. */
function refusalOf(input: Parameters<typeof chooseMode>[0]): string | null {
  try {
    chooseMode(input);
    return null;
  } catch (error) {
    if (SopworksError.isInstance(error)) return `${error.message}${error.hint ? ` ${error.hint}` : ''}`;
    throw error;
  }
}
