/**
 * The command line as a table: each command is one entry (commands/<name>.ts) — its name, arguments,
 * flags and a handler that loads its module only when it runs — and `declareCommands` turns the table
 * into commander's commands, which parse, dispatch by name and suggest the closest name on a typo.
 */
import type { Command } from 'commander';
import type { Output } from './output.ts';

/** A positional argument, in commander's syntax: `<repo>`, `[dir]`, `[spec...]`. */
export interface ArgumentEntry {
  syntax: string;
  description: string;
  default?: string;
}

/** A flag, in commander's syntax (`--out <dir>`, `--json`, `--no-check`). */
export interface FlagEntry {
  syntax: string;
  description: string;
  default?: string | boolean;
  /** Given several times, each value kept in order (the value is then a list, empty by default). */
  repeatable?: boolean;
  required?: boolean;
}

/** What commander hands an action: the positional arguments in order (a variadic one as a list). */
export type Positionals = readonly (string | string[] | undefined)[];

export interface CommandEntry {
  name: string;
  description: string;
  arguments?: readonly ArgumentEntry[];
  flags?: readonly FlagEntry[];
  /** Runs the command and returns its exit code; absent for a group of subcommands (`sop`, `models`). */
  handler?: (positionals: Positionals, options: unknown, io: Output) => Promise<number> | number;
  subcommands?: readonly CommandEntry[];
  /**
   * Reads no setting (no model, endpoint, queue or proxy): it runs even when the settings files cannot be
   * read, with a warning. Said of a group, it holds for each of its subcommands.
   */
  needsNoSettings?: boolean;
}

/** What every command's action is given besides its own arguments. */
export interface CommandContext {
  io: Output;
  /** Where the handler's exit code goes. */
  setExitCode: (code: number) => void;
  /** Why the settings could not be loaded (a SopworksError naming the file), or null. */
  settingsFault: unknown;
}

/** A flag given several times: each value kept, in order. */
const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** Adds the table's commands to `parent`; a handler's exit code goes to `context.setExitCode`. */
export function declareCommands(parent: Command, table: readonly CommandEntry[], context: CommandContext, inheritedNoSettings = false): void {
  for (const entry of table) {
    const command = parent.command(entry.name).description(entry.description);
    for (const flag of entry.flags ?? []) declareFlag(command, flag);
    for (const argument of entry.arguments ?? []) command.argument(argument.syntax, argument.description, argument.default);
    const handler = entry.handler;
    const needsNoSettings = inheritedNoSettings || entry.needsNoSettings === true;
    if (handler) {
      // commander passes the positionals, then the options, then the command itself.
      command.action(async (...given: unknown[]) => {
        checkSettings(context, needsNoSettings);
        const positionals = given.slice(0, -2) as Positionals;
        context.setExitCode(await handler(positionals, given.at(-2), context.io));
      });
    }
    declareCommands(command, entry.subcommands ?? [], context, needsNoSettings);
  }
}

/** A command that reads settings stops on a settings file it cannot read; one that reads none says so and goes on. */
function checkSettings({ settingsFault, io }: CommandContext, needsNoSettings: boolean): void {
  if (settingsFault === null || settingsFault === undefined) return;
  if (!needsNoSettings) throw settingsFault;
  const { message = String(settingsFault), hint } = settingsFault as { message?: string; hint?: string };
  io.err(`warning: ${message.split('\n')[0]}`);
  io.err(`  This command reads no settings and goes on; those that do stop until it is fixed.${hint ? ` ${hint}` : ''}`);
}

function declareFlag(command: Command, flag: FlagEntry): void {
  if (flag.repeatable) command.option(flag.syntax, flag.description, collect, []);
  else if (flag.required) command.requiredOption(flag.syntax, flag.description, flag.default);
  else command.option(flag.syntax, flag.description, flag.default);
}
