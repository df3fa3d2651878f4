/** `sopworks resume`: its arguments and flags; resume-command.ts does it, loaded only then. */
import type { CommandEntry } from '../command-table.ts';
import { allowUnsandboxedFlag, jsonLinesFlag, maxTimeFlag, modelForFlag, yesFlag } from './shared-flags.ts';

export const resumeEntry: CommandEntry = {
  name: 'resume',
  handler: async ([project], options, io) => (await import('../resume-command.ts')).resumeCommand(project as string, options, io),
  description: 'continue a run that stopped before its outcome (crash, Ctrl-C, a failed step)',
  arguments: [{ syntax: '<project>', description: 'the project folder, e.g. output/wordfreq' }],
  flags: [
    { syntax: '--llm <provider>', description: 'another provider than the run started with: openai | local[:<name or path>] | scripted:<file>' },
    { syntax: '--model <name>', description: 'another model for the openai provider' },
    modelForFlag('another model for one role, e.g. architect=gpt-4o (repeatable)'),
    { syntax: '--budget <usd>', description: 'a new limit in US dollars for the whole run (what was spent counts)' },
    { syntax: '--max-tokens <n>', description: 'a new token limit for the whole run (what was used counts)' },
    maxTimeFlag(),
    { syntax: '--record <file>', description: "write the run's model replies as a scenario file" },
    { syntax: '--hint <text>', description: 'guidance for the step that failed, shown in its prompt when it is asked again' },
    { syntax: '--until <point>', description: 'stop again, at a later point (prd, design, tasks); without it the run goes on to the end' },
    jsonLinesFlag,
    yesFlag,
    allowUnsandboxedFlag('run generated code that cannot be sandboxed here with your rights, only limited (docs/sandbox.md)'),
    { syntax: '--chaos <rate>', description: "spoil this share of the scenario's replies from here on (default: as the run started)" },
    { syntax: '--seed <n>', description: 'which replies --chaos spoils (default 1)' },
  ],
};
