/** The sopworks command line: the command table (commands/) declared to commander, errors turned into exit codes. */
import fs from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { SopworksError } from '../../ground/errors.ts';
import { SOPWORKS_VERSION } from '../../ground/version.ts';
import { useEnvironmentProxy } from '../../host/net/index.ts';
import { declareCommands } from './command-table.ts';
import { COMMANDS } from './commands/index.ts';
import { reportError } from './error-exit.ts';
import { consoleOutput, EXIT, type Output } from './output.ts';
import { applyUserConfig } from './user-config.ts';

/** The project's .env, when there is one. */
function loadDotEnv(): void {
  const file = path.resolve('.env');
  if (!fs.existsSync(file)) return;
  try {
    if (!fs.statSync(file).isFile()) throw Object.assign(new Error('not a file'), { code: 'not a file' });
    process.loadEnvFile(file);
  } catch (error) {
    throw new SopworksError('CONFIG_INVALID', `Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`, {
      hint: 'Make it a readable file of NAME=value lines (see .env.example), or remove it.',
    });
  }
}

/**
 * Settings in their order: the environment, then the project's .env, then the user's config — each fills
 * only what the ones before leave unset — and the proxies they name for every request made from here.
 * A settings file that cannot be read is returned, not thrown: it must never lock anyone out of the
 * commands that need no settings (`--help`, `status`, `review`, `init --force` that replaces it).
 */
async function loadSettings(): Promise<unknown> {
  const steps = [loadDotEnv, () => applyUserConfig(), () => useEnvironmentProxy()];
  let fault: unknown = null;
  // Each step still runs after another failed: a broken config keeps the .env and the proxy it can.
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      fault ??= error;
    }
  }
  return fault;
}

export async function main(argv: string[], io: Output = consoleOutput): Promise<number> {
  return commandLine(argv, io, await loadSettings());
}

/**
 * The command line with the settings as the process has them: parsed, dispatched, its errors turned into
 * exit codes. `settingsFault`: why the settings could not be loaded, raised by a command that reads them. The test suite runs it in its own process (test/helpers/in-process.ts).
 */
export async function commandLine(argv: string[], io: Output, settingsFault: unknown = null): Promise<number> {
  let exitCode: number = EXIT.done;
  const program = new Command()
    .name('sopworks')
    .description('A software company of LLM agents: a one-line spec in, a tested git repository out.')
    .version(SOPWORKS_VERSION, '-V, --version', 'print the version of sopworks')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) });
  // Each command's module is loaded when it runs: it pulls in what it needs (LangChain, the viewer, …), and
  // start-up of the others stays short.
  declareCommands(program, COMMANDS, { io, setExitCode: (code) => (exitCode = code), settingsFault });
  try {
    await program.parseAsync(argv);
    return exitCode;
  } catch (error) {
    return reportError(error, argv, io);
  }
}
