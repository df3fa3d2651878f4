/**
 * A command's error as the user sees it: a line on stderr (with the hint), a JSON line on stdout under
 * `--json`, and the exit code its code calls for — by its type and code, never by its message's text.
 */
import { CommanderError } from 'commander';
import pc from 'picocolors';
import { SopworksError } from '../../ground/errors.ts';
import { cleanBlock, cleanStrings } from '../../ground/terminal-text.ts';
import { exitCodeOfError } from '../../session/index.ts';
import { EXIT, type Output } from './output.ts';

/** An error as a JSON line: its message may quote a model or a path, so no control but newline and tab. */
const jsonLine = (line: Record<string, unknown>): string => JSON.stringify(cleanStrings(line, cleanBlock));

/** --json among the options (not after `--`): an error is then also a JSON line on stdout. */
const wantsJson = (argv: string[]): boolean => {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
};

/** Says what went wrong and returns the exit code. */
export function reportError(error: unknown, argv: string[], io: Output): number {
  const json = wantsJson(argv);
  if (error instanceof CommanderError) {
    // Commander printed its own message (an unknown command or flag, with its "Did you mean"); `--help` and `--version` end here too.
    if (error.exitCode === 0) return EXIT.done;
    if (json) io.out(jsonLine({ type: 'error', code: 'USAGE', message: error.message, hint: null, exitCode: EXIT.usage }));
    return EXIT.usage;
  }
  if (SopworksError.isInstance(error)) {
    io.err(`${pc.red('error')} ${error.message}`);
    if (error.hint) io.err(`  ${error.hint}`);
    const code = exitCodeOfError(error);
    if (json) io.out(jsonLine({ type: 'error', code: error.code, message: error.message, hint: error.hint ?? null, exitCode: code }));
    return code;
  }
  io.err(`${pc.red('error')} ${(error as Error)?.stack ?? String(error)}`);
  if (json) io.out(jsonLine({ type: 'error', code: 'UNEXPECTED', message: (error as Error)?.message ?? String(error), hint: null, exitCode: EXIT.failed }));
  return EXIT.failed;
}
