/** What a caller asks to start a new project (`sopworks run`, a suite's spec, a queued job): every field checked here. */
import { z } from 'zod';
import { DEFAULT_SOPS } from '../ground/package-root.ts';
import { flag, flagWithDefault } from './flag.ts';
import { positiveInteger, wholeNumberIn } from './flag-values.ts';
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

/** More Engineers than this only adds names: the files in progress are capped by --concurrency anyway. */
export const MAX_ENGINEERS = 16;

export const StartAsk = z.object({
  /** What to build, as given; `-` reads it from standard input; absent: the scenario's. */
  spec: z.string().optional(),
  specFile: specFileFlag('spec'),
  instructions: flag(z.string().min(1).optional(), {
    value: '<file>',
    description: "the project's own rules for every role (e.g. an AGENTS.md), kept for resume",
  }),
  /** The instructions as text (a queued job's), when no file is named. */
  instructionsText: z.string().nullable().optional(),
  name: flag(z.string().optional(), { value: '<project>', description: 'project folder name (default: from the spec)' }),
  out: flagWithDefault(z.string().min(1), 'output', { value: '<dir>', description: 'where projects are created' }),
  llm: flag(z.string().optional(), {
    value: '<provider>',
    description: 'openai | local[:<model name or .gguf path>] | scripted:<scenario file> (default: openai when configured)',
  }),
  model: flag(z.string().min(1).optional(), {
    value: '<name>',
    description: 'model name for the openai provider (default: SOPWORKS_MODEL or gpt-4o-mini), or a cached model for --llm local',
  }),
  modelFor: modelForFlag('another model for one role, e.g. architect=gpt-4o (repeatable; kept for resume)'),
  force: flagWithDefault(z.boolean(), false, { description: 'replace an existing project of the same name' }),
  allowUnsandboxed: allowUnsandboxedFlag(
    'run generated code that cannot be sandboxed here (no bubblewrap, not Node) with your rights, only limited (docs/sandbox.md)',
  ),
  ...limitFlags(),
  approve: approveFlag(),
  yes: yesFlag(),
  concurrency: flagWithDefault(positiveInteger('files at once'), '4', { value: '<n>', description: 'how many files are written at once (kept for resume)' }),
  engineers: flagWithDefault(wholeNumberIn(1, MAX_ENGINEERS), '1', {
    value: '<n>',
    description: 'how many Engineers share the files; each file is reviewed by another Engineer (kept for resume)',
  }),
  /** Stop after this point (a SOP's stopAt: prd, design, tasks in the default company), outcome paused. */
  until: flag(z.string().trim().min(1).optional(), {
    value: '<point>',
    description: 'stop after this artifact: prd, design or tasks (outcome paused, exit 5; resume goes on to the end)',
  }),
  clarify: clarifyFlag('the PRD'),
  ...chaosFlags(),
  sops: sopsFlag('folder of company.yaml and the SOP files', DEFAULT_SOPS),
  roles: rolesFlag(),
});
export type StartAsk = z.input<typeof StartAsk>;

/**
 * The flags of `run` that a queued run takes too (`sopworks submit`), each kept in its run.json as `run`
 * keeps it: where it stops, the gates it waits at, its limits, its Engineers and each role's model.
 */
export const QueuedFlagsAsk = StartAsk.pick({ until: true, approve: true, budget: true, maxTokens: true, maxTime: true, engineers: true, modelFor: true });
export type CheckedStartAsk = z.output<typeof StartAsk>;
