/**
 * A request as the command line that asks for it — `resume <project> --hint …`, `change <repo> - --out …`
 * — made from the same schema and flags the CLI parses it with (flag.ts): for a front end that starts the
 * CLI as a process of its own (the workbench, src/apps/review/server/run-launcher.ts). Checked first, so a
 * bad request is refused before any process starts.
 */
import type { z } from 'zod';
import { ChangeAsk } from './change-ask.ts';
import { flagName, flagsOf } from './flag.ts';
import { parseRequest } from './parse-request.ts';
import { ResumeAsk } from './resume-ask.ts';
import { StartAsk } from './start-ask.ts';

export type AskedCommand = { command: 'run'; ask: StartAsk } | { command: 'change'; ask: ChangeAsk } | { command: 'resume'; ask: ResumeAsk };

/**
 * The arguments after `sopworks`: the command, each flag given as `--name=value` (a switch that is off
 * left out), then `--` and the positional arguments — so no value is ever read as a flag.
 */
export function commandLineOf(asked: AskedCommand): string[] {
  const schema: z.ZodObject = asked.command === 'run' ? StartAsk : asked.command === 'change' ? ChangeAsk : ResumeAsk;
  parseRequest(schema, asked.ask, asked.command);
  const given = asked.ask as Record<string, unknown>;
  const positionals = asked.command === 'run' ? [asked.ask.spec] : asked.command === 'change' ? [asked.ask.repo, asked.ask.request] : [asked.ask.project];
  const flags = new Set(flagsOf(schema).map((line) => line.syntax.split(' ')[0]));
  const options = Object.entries(given).flatMap(([field, value]) => {
    const name = flagName(field);
    if (!flags.has(name) || value === undefined || value === null || value === false) return [];
    if (value === true) return [name];
    return (Array.isArray(value) ? value : [value]).map((one) => `${name}=${String(one)}`);
  });
  return [asked.command, ...options, '--', ...positionals.filter((p): p is string => p !== undefined)];
}
