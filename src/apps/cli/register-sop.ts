/**
 * Declares `sopworks sop validate | graph | init | vocabulary`; what each does is in sop-command.ts,
 * loaded only when one of them runs (the SOP machinery is not needed for `--help`).
 */
import type { Command } from 'commander';
import type { CompanyFolders } from '../../engine/sop/init-company-folder.ts';
import type { Output } from './output.ts';

const actions = () => import('./sop-command.ts');

/** Adds `sop` and its subcommands to the program (through .command, so they share its error handling). */
export function registerSopCommand(program: Command, defaults: CompanyFolders, io: Output, setExitCode: (code: number) => void): void {
  const sop = program.command('sop').description('check, draw and copy the SOP and prompt files (sops/, roles/)');
  const folders = (command: Command) =>
    command
      .option('--sops <dir>', 'folder of company.yaml and the SOP files', defaults.sops)
      .option('--roles <dir>', 'folder of role profiles and prompt templates', defaults.roles);

  folders(sop.command('validate'))
    .description('check everything a run would trip on; exit 0 when there is no error, 1 when there is')
    .action(async (options: unknown) => setExitCode(await (await actions()).validateSops(options, io)));

  folders(sop.command('graph'))
    .description("draw the company's message flow and each role's SOP (mermaid), or one role's SOP with --role")
    .option('--role <id>', "only this role's SOP, as a bare mermaid stateDiagram-v2")
    .option('--out <file>', 'write to this file instead of printing')
    .action(async (options: unknown) => setExitCode(await (await actions()).graphSops(options, io)));

  sop
    .command('init')
    .description('write DIR/sops and DIR/roles: a copy of the defaults to edit')
    .argument('<dir>', 'the folder to write into (created if missing)')
    .option('--force', 'overwrite files that already exist there', false)
    .action(async (dir: string, options: unknown) => setExitCode(await (await actions()).initSops(dir, options, defaults, io)));

  sop
    .command('vocabulary')
    .description('print the actions, guards, steps, views and message types a SOP can use (Markdown)')
    .action(async () => setExitCode((await actions()).printVocabulary(io)));
}
