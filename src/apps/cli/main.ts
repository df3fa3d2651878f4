/** The sopworks command line: the command table (commands/) declared to commander, errors turned into exit codes. */
import fs from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { SOPWORKS_VERSION } from '../../ground/version.ts';
import { useEnvironmentProxy } from '../../host/net/index.ts';
import { declareCommands } from './command-table.ts';
import { COMMANDS } from './commands/index.ts';
import { reportError } from './error-exit.ts';
import { consoleOutput, EXIT, type Output } from './output.ts';
import { applyUserConfig } from './user-config.ts';

/**
 * Settings in their order: the environment, then the project's .env, then the user's config — each fills
 * only what the ones before leave unset — and the proxies they name for every request made from here.
 */
async function loadSettings(): Promise<void> {
  const file = path.resolve('.env');
  if (fs.existsSync(file)) process.loadEnvFile(file);
  applyUserConfig();
  await useEnvironmentProxy();
}

export async function main(argv: string[], io: Output = consoleOutput): Promise<number> {
  try {
    await loadSettings();
  } catch (error) {
    return reportError(error, argv, io);
  }
  return commandLine(argv, io);
}

/**
 * The command line with the settings as the process has them: parsed, dispatched, its errors turned into
 * exit codes. The test suite runs it in its own process (test/helpers/in-process.ts).
 */
export async function commandLine(argv: string[], io: Output): Promise<number> {
  let exitCode: number = EXIT.done;
  const program = new Command()
    .name('sopworks')
    .description('A software company of LLM agents: a one-line spec in, a tested git repository out.')
    .version(SOPWORKS_VERSION, '-V, --version', 'print the version of sopworks')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) });
  // Each command's module is loaded when it runs: it pulls in what it needs (LangChain, the viewer, …), and
  // start-up of the others stays short.
  declareCommands(program, COMMANDS, io, (code) => (exitCode = code));
  try {
    await program.parseAsync(argv);
    return exitCode;
  } catch (error) {
    return reportError(error, argv, io);
  }
}
