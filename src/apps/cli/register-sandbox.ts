/** Declares `sopworks sandbox exec`; sandbox-command.ts runs it, loaded only then. */
import path from 'node:path';
import type { Command } from 'commander';
import type { Output } from './output.ts';

/** Adds `sandbox exec` to the program; `setExitCode` receives the command's exit code. */
export function registerSandboxCommand(program: Command, io: Output, setExitCode: (code: number) => void, packageRoot: string): void {
  program
    .command('sandbox')
    .description('run commands the way generated code runs: isolated and bounded (docs/sandbox.md)')
    .command('exec')
    .description('run a command in a project exactly as QA runs its tests, and print the outcome')
    .requiredOption('--dir <dir>', 'the project folder to run in (the only writable folder)')
    .option('--allow-unsandboxed', 'run even where the command cannot be sandboxed (no bubblewrap, not Node), with your rights', false)
    .option('--timeout <seconds>', 'wall-clock limit', '120')
    .option('--role <id>', 'the role whose commands the policy allows', 'qa')
    .option('--sops <dir>', 'folder of the authorization policy (policy.yaml)', path.join(packageRoot, 'sops'))
    .argument('<command...>', 'the command and its arguments, after --')
    .action(async (command: string[], options: unknown) => {
      setExitCode(await (await import('./sandbox-command.ts')).sandboxExec(command, options, io));
    });
}
