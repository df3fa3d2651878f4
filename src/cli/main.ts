/** The sopworks command line: parses flags (commander), dispatches, turns errors into exit codes. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import pc from 'picocolors';
import { SopworksError, type ErrorCode } from '../errors.ts';
import { runCommand } from './run-command.ts';
import { consoleOutput, EXIT, type Output } from './output.ts';

const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Input the user can fix before a run starts: exit 2. */
const USAGE_ERRORS: ErrorCode[] = [
  'USAGE',
  'SPEC_INVALID',
  'CONFIG_INVALID',
  'NO_MODEL',
  'SCENARIO_INVALID',
  'SOP_INVALID',
  'TEMPLATE_INVALID',
  'OUTPUT_EXISTS',
  'OUTPUT_UNWRITABLE',
  'MODEL_UNREACHABLE',
  'MODEL_AUTH',
];

function loadDotEnv(): void {
  const file = path.resolve('.env');
  if (fs.existsSync(file)) process.loadEnvFile(file);
}

export async function main(argv: string[], io: Output = consoleOutput): Promise<number> {
  let exitCode: number = EXIT.done;
  const program = new Command()
    .name('sopworks')
    .description('A software company of LLM agents: a one-line spec in, a tested git repository out.')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) });

  program
    .command('run')
    .description('run the company on a spec and commit what it makes into a new git repository')
    .argument('[spec...]', 'what to build, in one line (a scripted scenario may supply it)')
    .option('--name <project>', 'project folder name (default: from the spec)')
    .option('--out <dir>', 'where projects are created', 'output')
    .option('--llm <provider>', 'openai | scripted:<scenario file> (default: openai when configured)')
    .option('--model <name>', 'model name for the openai provider (default: SOPWORKS_MODEL or gpt-4o-mini)')
    .option('--force', 'replace an existing project of the same name', false)
    .option('--sops <dir>', 'folder of company.yaml and the SOP files', path.join(PACKAGE_ROOT, 'sops'))
    .option('--roles <dir>', 'folder of role profiles and prompt templates', path.join(PACKAGE_ROOT, 'roles'))
    .action(async (spec: string[], options: unknown) => {
      exitCode = await runCommand(spec, options, io);
    });

  try {
    loadDotEnv();
    await program.parseAsync(argv);
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? EXIT.done : EXIT.usage;
    }
    if (SopworksError.isInstance(error)) {
      io.err(`${pc.red('error')} ${error.message}`);
      if (error.hint) io.err(`  ${error.hint}`);
      return USAGE_ERRORS.includes(error.code) ? EXIT.usage : EXIT.failed;
    }
    io.err(`${pc.red('error')} ${(error as Error)?.stack ?? String(error)}`);
    return EXIT.failed;
  }
}
