/** What a caller asks to change an existing repository (`sopworks change`, a suite's change task, the workbench). */
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_SOPS } from '../ground/package-root.ts';
import { flag, flagWithDefault } from './flag.ts';
import {
  allowUnsandboxedFlag,
  approveFlag,
  chaosFlags,
  clarifyFlag,
  limitFlags,
  modelForFlag,
  rolesFlag,
  sopsFlag,
  specFileFlag,
  yesFlag,
} from './run-flags.ts';

export const ChangeAsk = z.object({
  /** The top folder of a git repository with a clean work tree. */
  repo: z.string().min(1, 'name the repository to change'),
  /** What to change, as given; `-` reads it from standard input; absent: the scenario's. */
  request: z.string().optional(),
  specFile: specFileFlag('request'),
  instructions: flag(z.string().min(1).optional(), {
    value: '<file>',
    description: "more rules for every role, beside the repository's AGENTS.md, CONVENTIONS.md, CONTRIBUTING.md and .editorconfig",
  }),
  base: flag(z.string().min(1).optional(), { value: '<rev>', description: 'where the change starts (default: the current branch)' }),
  branch: flag(z.string().min(1).optional(), { value: '<name>', description: 'the branch to make (default: sopworks/<slug of the request>)' }),
  force: flagWithDefault(z.boolean(), false, { description: 'start an existing branch (and its work tree under --out) again from the base' }),
  commitDocuments: flagWithDefault(z.boolean(), false, {
    description:
      "also commit the change's documents (change request, design, tasks, test reports) on the branch; by default they stay in the work tree's .sopworks/documents/",
  }),
  squash: flagWithDefault(z.boolean(), false, { description: 'once the change is done, make its branch one commit titled by the change request' }),
  name: flag(z.string().optional(), { value: '<project>', description: 'the folder of the change under --out (default: <repo>-<slug>)' }),
  out: flagWithDefault(z.string().min(1), 'output', { value: '<dir>', description: "where the change's work tree and run state go (outside the repository)" }),
  llm: flag(z.string().optional(), { value: '<provider>', description: 'openai | scripted:<scenario file> (default: openai when configured)' }),
  model: flag(z.string().min(1).optional(), { value: '<name>', description: 'model name for the openai provider' }),
  modelFor: modelForFlag("another model for one role, e.g. architect=gpt-4o, over the change company's (repeatable; kept for resume)"),
  ...limitFlags(),
  approve: approveFlag(),
  yes: yesFlag(),
  clarify: clarifyFlag('the change request'),
  allowUnsandboxed: allowUnsandboxedFlag('run the tests that cannot be sandboxed here with your rights, only limited (docs/sandbox.md)'),
  ...chaosFlags(),
  sops: sopsFlag('folder of the change company and its SOP files', path.join(DEFAULT_SOPS, 'change')),
  roles: rolesFlag(),
});
export type ChangeAsk = z.input<typeof ChangeAsk>;
export type CheckedChangeAsk = z.output<typeof ChangeAsk>;
