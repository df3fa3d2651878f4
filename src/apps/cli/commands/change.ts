/** `sopworks change`: its arguments and flags; change-command.ts does it, loaded only then. */
import path from 'node:path';
import type { CommandEntry } from '../command-table.ts';
import { DEFAULT_SOPS } from '../package-root.ts';
import { allowUnsandboxedFlag, approveFlag, chaosFlags, clarifyFlag, jsonLinesFlag, limitFlags, rolesFlag, sopsFlag, yesFlag } from './shared-flags.ts';

export const changeEntry: CommandEntry = {
  name: 'change',
  handler: async ([repo, request], options, io) => (await import('../change-command.ts')).changeCommand(repo as string, request as string[], options, io),
  description: 'change an existing git repository on a new branch, in its own work tree (your work tree is never touched)',
  arguments: [
    { syntax: '<repo>', description: 'the top folder of a git repository with a clean work tree' },
    { syntax: '[request...]', description: 'what to change, in one line; - reads it from standard input (a scripted scenario may supply it)' },
  ],
  flags: [
    { syntax: '--spec-file <file>', description: 'read the request from this file' },
    {
      syntax: '--instructions <file>',
      description: "more rules for every role, beside the repository's AGENTS.md, CONVENTIONS.md, CONTRIBUTING.md and .editorconfig",
    },
    jsonLinesFlag,
    { syntax: '--base <rev>', description: 'where the change starts (default: the current branch)' },
    { syntax: '--branch <name>', description: 'the branch to make (default: sopworks/<slug of the request>)' },
    { syntax: '--force', description: 'start an existing branch (and its work tree under --out) again from the base', default: false },
    { syntax: '--name <project>', description: 'the folder of the change under --out (default: <repo>-<slug>)' },
    { syntax: '--out <dir>', description: "where the change's work tree and run state go (outside the repository)", default: 'output' },
    { syntax: '--llm <provider>', description: 'openai | scripted:<scenario file> (default: openai when configured)' },
    { syntax: '--model <name>', description: 'model name for the openai provider' },
    ...limitFlags,
    approveFlag,
    yesFlag,
    clarifyFlag('the change request'),
    allowUnsandboxedFlag('run the tests that cannot be sandboxed here with your rights, only limited (docs/sandbox.md)'),
    ...chaosFlags,
    sopsFlag('folder of the change company and its SOP files', path.join(DEFAULT_SOPS, 'change')),
    rolesFlag,
  ],
};
