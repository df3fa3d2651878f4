/**
 * Which sandbox a run gets — pure. bubblewrap where it works; otherwise, for Node, its permission
 * model; otherwise nothing but the limits, and only when the user said so (`--allow-unsandboxed`).
 * Anything weaker than bubblewrap comes with a notice meant to be printed loudly.
 */
import { SopworksError } from '../../ground/errors.ts';
import type { Availability } from './bubblewrap.ts';
import type { Runtime } from './find-command.ts';
import type { SandboxMode } from './sandbox-report.ts';

/** auto: bubblewrap where it works, else the fallback; bubblewrap: refuse to run without it; fallback: never use it. */
export const MODE_SETTINGS = ['auto', 'bubblewrap', 'fallback'] as const;
export type ModeSetting = (typeof MODE_SETTINGS)[number];

export interface ModeInput {
  setting: ModeSetting;
  bubblewrap: Availability;
  nodePermissions: Availability;
  runtime: Runtime;
  allowUnsandboxed: boolean;
  /** The command, for messages. */
  command: string;
}

export interface ModeChoice {
  mode: SandboxMode;
  /** Why the run is not under bubblewrap, said to the user; null under bubblewrap. */
  notice: string | null;
}

export function chooseMode(input: ModeInput): ModeChoice {
  const { setting, bubblewrap, nodePermissions, runtime } = input;
  if (setting !== 'fallback' && bubblewrap.available) return { mode: 'bubblewrap', notice: null };
  const why = setting === 'fallback' ? 'SOPWORKS_SANDBOX=fallback' : !bubblewrap.available ? bubblewrap.reason : '';
  if (setting === 'bubblewrap') {
    throw new SopworksError('TEST_RUN_FAILED', `The sandbox must be bubblewrap (SOPWORKS_SANDBOX=bubblewrap), but ${why}.`, {
      hint: 'Install bubblewrap (e.g. apt-get install bubblewrap), or set SOPWORKS_SANDBOX=auto to accept the weaker fallback.',
    });
  }
  if (runtime === 'node' && nodePermissions.available) {
    return {
      mode: 'node-permissions',
      notice:
        `WEAKER SANDBOX: ${why}. "${input.command}" runs under Node's permission model instead: file writes are limited to ` +
        'the project, but reads and the network are NOT blocked and child processes that are not Node are NOT confined. ' +
        'Install bubblewrap for the full sandbox (see docs/sandbox.md).',
    };
  }
  if (input.allowUnsandboxed) {
    return {
      mode: 'unsandboxed',
      notice:
        `NOT SANDBOXED: ${why}${runtime === 'node' && !nodePermissions.available ? `; ${nodePermissions.reason}` : ''}. ` +
        `--allow-unsandboxed was given, so "${input.command}" runs with your user's rights: it can read and write your files ` +
        'and reach the network; only the time, CPU, memory, process and output limits and a clean environment apply.',
    };
  }
  const what =
    runtime !== 'node'
      ? `the fallback covers only Node projects ("${input.command}" is not Node)`
      : `Node's permission model is not usable either (${nodePermissions.available ? 'unknown' : nodePermissions.reason})`;
  throw new SopworksError('TEST_RUN_FAILED', `Cannot sandbox "${input.command}": ${why}; ${what}.`, {
    hint: 'Install bubblewrap (e.g. apt-get install bubblewrap); or, knowing that the generated code then runs with your rights, pass --allow-unsandboxed.',
  });
}
