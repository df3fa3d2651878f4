/** `sopworks run`: its arguments and flags; run-command.ts does it, loaded only then. */
import type { CommandEntry } from '../command-table.ts';
import {
  allowUnsandboxedFlag,
  approveFlag,
  chaosFlags,
  clarifyFlag,
  jsonLinesFlag,
  limitFlags,
  modelForFlag,
  rolesFlag,
  sopsFlag,
  yesFlag,
} from './shared-flags.ts';

export const runEntry: CommandEntry = {
  name: 'run',
  handler: async ([spec], options, io) => (await import('../run-command.ts')).runCommand(spec as string[], options, io),
  description: 'run the company on a spec and commit what it makes into a new git repository',
  arguments: [{ syntax: '[spec...]', description: 'what to build, in one line; - reads it from standard input (a scripted scenario may supply it)' }],
  flags: [
    { syntax: '--spec-file <file>', description: 'read the spec from this file' },
    { syntax: '--instructions <file>', description: "the project's own rules for every role (e.g. an AGENTS.md), kept for resume" },
    jsonLinesFlag,
    { syntax: '--name <project>', description: 'project folder name (default: from the spec)' },
    { syntax: '--out <dir>', description: 'where projects are created', default: 'output' },
    { syntax: '--llm <provider>', description: 'openai | local[:<model name or .gguf path>] | scripted:<scenario file> (default: openai when configured)' },
    {
      syntax: '--model <name>',
      description: 'model name for the openai provider (default: SOPWORKS_MODEL or gpt-4o-mini), or a cached model for --llm local',
    },
    modelForFlag('another model for one role, e.g. architect=gpt-4o (repeatable; kept for resume)'),
    { syntax: '--force', description: 'replace an existing project of the same name', default: false },
    allowUnsandboxedFlag('run generated code that cannot be sandboxed here (no bubblewrap, not Node) with your rights, only limited (docs/sandbox.md)'),
    ...limitFlags,
    approveFlag,
    yesFlag,
    { syntax: '--concurrency <n>', description: 'how many files are written at once (kept for resume)', default: '4' },
    { syntax: '--engineers <n>', description: 'how many Engineers share the files; each file is reviewed by another Engineer (kept for resume)', default: '1' },
    { syntax: '--until <point>', description: 'stop after this artifact: prd, design or tasks (outcome paused, exit 5; resume goes on to the end)' },
    clarifyFlag('the PRD'),
    ...chaosFlags,
    sopsFlag(),
    rolesFlag,
  ],
};
