/** The sopworks command line: parses flags (commander), dispatches, turns errors into exit codes. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import pc from 'picocolors';
import { SopworksError, type ErrorCode } from '../../ground/errors.ts';
import { SOPWORKS_VERSION } from '../../ground/version.ts';
import { applyUserConfig } from '../../capabilities/model/user-config.ts';
import { useEnvironmentProxy } from '../../host/net/proxy.ts';
import { registerSopCommand } from './register-sop.ts';
import { registerSandboxCommand } from './register-sandbox.ts';
import { registerModelsCommand } from './register-models.ts';
import { consoleOutput, EXIT, type Output } from './output.ts';
import { cleanBlock, cleanStrings } from '../../ground/terminal-text.ts';

/** An error as a JSON line: its message may quote a model or a path, so no control but newline and tab. */
const jsonLine = (line: Record<string, unknown>): string => JSON.stringify(cleanStrings(line, cleanBlock));
// Commands are loaded when they run: each pulls in what it needs (LangChain, the viewer, …), and start-up
// of the others stays short.

const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** Input the user can fix before a run starts: exit 2. */
const USAGE_ERRORS: ErrorCode[] = [
  'USAGE',
  'SPEC_INVALID',
  'CONFIG_INVALID',
  'NO_MODEL',
  'SCENARIO_INVALID',
  'SOP_INVALID',
  'TEMPLATE_INVALID',
  'OUTPUT_EXISTS',
  'OUTPUT_UNWRITABLE',
  'MODEL_UNREACHABLE',
  'MODEL_AUTH',
  'PROJECT_BUSY',
  'NOT_RESUMABLE',
  'QUEUE_UNREACHABLE',
  'QUEUE_MISCONFIGURED',
];

/** A flag given several times: each value kept, in order. */
const collect = (value: string, previous: string[]): string[] => [...previous, value];

/**
 * Settings in their order: the environment, then the project's .env, then the user's config — each fills
 * only what the ones before leave unset — and the proxies they name for every request made from here.
 */
async function loadSettings(): Promise<void> {
  const file = path.resolve('.env');
  if (fs.existsSync(file)) process.loadEnvFile(file);
  applyUserConfig();
  await useEnvironmentProxy();
}

/** --json among the options (not after `--`): an error is then also a JSON line on stdout. */
const wantsJson = (argv: string[]): boolean => {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
};

export async function main(argv: string[], io: Output = consoleOutput): Promise<number> {
  let exitCode: number = EXIT.done;
  const program = new Command()
    .name('sopworks')
    .description('A software company of LLM agents: a one-line spec in, a tested git repository out.')
    .version(SOPWORKS_VERSION, '-V, --version', 'print the version of sopworks')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) });

  program
    .command('run')
    .description('run the company on a spec and commit what it makes into a new git repository')
    .argument('[spec...]', 'what to build, in one line; - reads it from standard input (a scripted scenario may supply it)')
    .option('--spec-file <file>', 'read the spec from this file')
    .option('--instructions <file>', "the project's own rules for every role (e.g. an AGENTS.md), kept for resume")
    .option('--json', 'print JSON lines on stdout: every progress event, then the summary (docs/json-output.md)', false)
    .option('--name <project>', 'project folder name (default: from the spec)')
    .option('--out <dir>', 'where projects are created', 'output')
    .option('--llm <provider>', 'openai | local[:<model name or .gguf path>] | scripted:<scenario file> (default: openai when configured)')
    .option('--model <name>', 'model name for the openai provider (default: SOPWORKS_MODEL or gpt-4o-mini), or a cached model for --llm local')
    .option('--model-for <role=model>', 'another model for one role, e.g. architect=gpt-4o (repeatable; kept for resume)', collect, [])
    .option('--force', 'replace an existing project of the same name', false)
    .option(
      '--allow-unsandboxed',
      'run generated code that cannot be sandboxed here (no bubblewrap, not Node) with your rights, only limited (docs/sandbox.md)',
      false,
    )
    .option('--budget <usd>', 'stop (outcome budget-exhausted, exit 3) before spending more than this many US dollars')
    .option('--max-tokens <n>', 'stop before using more than this many tokens (prompt + completion)')
    .option('--max-time <duration>', 'stop the run at this time limit, e.g. 30m or 1h30m (outcome timed-out, exit 124; resume continues it)')
    .option('--record <file>', "write the run's model replies as a scenario file, to replay it offline")
    .option('--approve <gates>', 'hold these artifacts until a person approves them: prd,design,code,tests')
    .option('--yes', 'approve every gated artifact without asking', false)
    .option('--concurrency <n>', 'how many files are written at once (kept for resume)', '4')
    .option('--engineers <n>', 'how many Engineers share the files; each file is reviewed by another Engineer (kept for resume)', '1')
    .option('--until <point>', 'stop after this artifact: prd, design or tasks (outcome paused, exit 5; resume goes on to the end)')
    .option('--clarify', 'let the Product Manager ask you a few questions before the PRD (at this terminal, else from the workbench)', false)
    .option('--chaos <rate>', "spoil this share (0 to 1) of a scripted scenario's replies the ways real models do (docs/eval.md)")
    .option('--seed <n>', 'which replies --chaos spoils, and how (default 1): the same seed, the same faults')
    .option('--sops <dir>', 'folder of company.yaml and the SOP files', path.join(PACKAGE_ROOT, 'sops'))
    .option('--roles <dir>', 'folder of role profiles and prompt templates', path.join(PACKAGE_ROOT, 'roles'))
    .action(async (spec: string[], options: unknown) => {
      exitCode = await (await import('./run-command.ts')).runCommand(spec, options, io);
    });

  program
    .command('change')
    .description('change an existing git repository on a new branch, in its own work tree (your work tree is never touched)')
    .argument('<repo>', 'the top folder of a git repository with a clean work tree')
    .argument('[request...]', 'what to change, in one line; - reads it from standard input (a scripted scenario may supply it)')
    .option('--spec-file <file>', 'read the request from this file')
    .option('--instructions <file>', "more rules for every role, beside the repository's AGENTS.md, CONVENTIONS.md, CONTRIBUTING.md and .editorconfig")
    .option('--json', 'print JSON lines on stdout: every progress event, then the summary (docs/json-output.md)', false)
    .option('--base <rev>', 'where the change starts (default: the current branch)')
    .option('--branch <name>', 'the branch to make (default: sopworks/<slug of the request>)')
    .option('--force', 'start an existing branch (and its work tree under --out) again from the base', false)
    .option('--name <project>', 'the folder of the change under --out (default: <repo>-<slug>)')
    .option('--out <dir>', "where the change's work tree and run state go (outside the repository)", 'output')
    .option('--llm <provider>', 'openai | scripted:<scenario file> (default: openai when configured)')
    .option('--model <name>', 'model name for the openai provider')
    .option('--budget <usd>', 'stop (outcome budget-exhausted, exit 3) before spending more than this many US dollars')
    .option('--max-tokens <n>', 'stop before using more than this many tokens (prompt + completion)')
    .option('--max-time <duration>', 'stop the run at this time limit, e.g. 30m or 1h30m (outcome timed-out, exit 124; resume continues it)')
    .option('--record <file>', "write the run's model replies as a scenario file, to replay it offline")
    .option('--approve <gates>', 'hold these artifacts until a person approves them: prd,design,code,tests')
    .option('--yes', 'approve every gated artifact without asking', false)
    .option('--allow-unsandboxed', 'run the tests that cannot be sandboxed here with your rights, only limited (docs/sandbox.md)', false)
    .option('--chaos <rate>', "spoil this share (0 to 1) of a scripted scenario's replies the ways real models do (docs/eval.md)")
    .option('--seed <n>', 'which replies --chaos spoils, and how (default 1): the same seed, the same faults')
    .option('--sops <dir>', 'folder of the change company and its SOP files', path.join(PACKAGE_ROOT, 'sops', 'change'))
    .option('--roles <dir>', 'folder of role profiles and prompt templates', path.join(PACKAGE_ROOT, 'roles'))
    .action(async (repo: string, request: string[], options: unknown) => {
      exitCode = await (await import('./change-command.ts')).changeCommand(repo, request, options, io);
    });

  program
    .command('resume')
    .description('continue a run that stopped before its outcome (crash, Ctrl-C, a failed step)')
    .argument('<project>', 'the project folder, e.g. output/wordfreq')
    .option('--llm <provider>', 'another provider than the run started with: openai | local[:<name or path>] | scripted:<file>')
    .option('--model <name>', 'another model for the openai provider')
    .option('--model-for <role=model>', 'another model for one role, e.g. architect=gpt-4o (repeatable)', collect, [])
    .option('--budget <usd>', 'a new limit in US dollars for the whole run (what was spent counts)')
    .option('--max-tokens <n>', 'a new token limit for the whole run (what was used counts)')
    .option('--max-time <duration>', 'stop the run at this time limit, e.g. 30m or 1h30m (outcome timed-out, exit 124; resume continues it)')
    .option('--record <file>', "write the run's model replies as a scenario file")
    .option('--hint <text>', 'guidance for the step that failed, shown in its prompt when it is asked again')
    .option('--until <point>', 'stop again, at a later point (prd, design, tasks); without it the run goes on to the end')
    .option('--json', 'print JSON lines on stdout: every progress event, then the summary (docs/json-output.md)', false)
    .option('--yes', 'approve every gated artifact without asking', false)
    .option('--allow-unsandboxed', 'run generated code that cannot be sandboxed here with your rights, only limited (docs/sandbox.md)', false)
    .option('--chaos <rate>', "spoil this share of the scenario's replies from here on (default: as the run started)")
    .option('--seed <n>', 'which replies --chaos spoils (default 1)')
    .action(async (project: string, options: unknown) => {
      exitCode = await (await import('./resume-command.ts')).resumeCommand(project, options, io);
    });

  program
    .command('approve')
    .description('decide on what a run stopped with awaiting-approval is waiting for; then `resume` it')
    .argument('<project>', 'the project folder, e.g. output/wordfreq')
    .option('--reject <feedback>', 'reject it, saying what the role should change')
    .action(async (project: string, options: unknown) => {
      exitCode = await (await import('./approve-command.ts')).approveCommand(project, options, io);
    });

  program
    .command('status')
    .description('list the runs in a folder with their outcome, last step and usage')
    .argument('[dir]', 'a folder of projects, or one project', 'output')
    .option('--json', 'print a JSON line per run, then a summary (docs/json-output.md)', false)
    .action(async (dir: string, options: { json: boolean }) => {
      exitCode = await (await import('./status-command.ts')).statusCommand(dir, io, options.json);
    });

  program
    .command('review')
    .description('report on a run: outcome, timeline, artifacts, tests, usage and cost, git log')
    .argument('<project>', 'the project folder, e.g. output/wordfreq')
    .option('--json', 'print the timeline as JSON lines, then a summary (docs/json-output.md)', false)
    .action(async (project: string, options: { json: boolean }) => {
      exitCode = await (await import('./review-command.ts')).reviewCommand(project, io, options.json);
    });

  program
    .command('serve')
    .description('a local web viewer of the runs in a folder, live while a run is in progress')
    .argument('[dir]', 'a folder of projects, or one project', 'output')
    .option('--port <port>', 'port to listen on (0: any free port)', '4173')
    .option('--host <host>', 'address to bind; keep the default unless you know why (beyond the loopback, reads need the token too)', '127.0.0.1')
    .option('--allow-host <name>', 'another name the viewer answers to, e.g. a DNS name or a proxy (repeatable)', collect, [])
    .option('--llm <provider>', 'the model of a change started from a page, as `sopworks change --llm` takes it')
    .option('--model <name>', 'the model name of a change started from a page (openai provider)')
    .action(async (dir: string, options: unknown) => {
      exitCode = await (await import('./serve-command.ts')).serveCommand(dir, options, io);
    });

  program
    .command('init')
    .description('write your settings once for every folder (~/.config/sopworks/config.toml): endpoint, model, key variable — checked as doctor checks')
    .option('--base-url <url>', 'the endpoint (skip the question): an OpenAI-compatible base URL, or "openai"')
    .option('--model <name>', 'the model (skip the question)')
    .option('--api-key-env <variable>', 'the environment variable that holds the key (skip the question); "none" for none')
    .option('--no-check', 'write without probing the endpoint')
    .option('--force', 'replace an existing config without asking', false)
    .action(async (options: unknown) => {
      exitCode = await (await import('./init-command.ts')).initCommand(options, io);
    });

  program
    .command('doctor')
    .description('probe the model endpoint(s): reachable, key, model, structured output, context, usage, latency, JSON compliance')
    .option('--llm <provider>', 'local[:<model name or .gguf path>]: check the in-process engine and model instead of the endpoint')
    .option('--model <name>', 'the model to check (default: SOPWORKS_MODEL or gpt-4o-mini)')
    .option('--model-for <role=model>', 'check another model for one role, as `run --model-for` would use it (repeatable)', collect, [])
    .option('--sops <dir>', 'folder of company.yaml, whose roles may name their own models', path.join(PACKAGE_ROOT, 'sops'))
    .option('--roles <dir>', 'folder of role profiles and prompt templates', path.join(PACKAGE_ROOT, 'roles'))
    .option('--json', 'print the findings as JSON', false)
    .action(async (options: unknown) => {
      exitCode = await (await import('./doctor-command.ts')).doctorCommand(options, io);
    });

  program
    .command('eval')
    .description('run a suite of specs (several at once), measure each run, and write the table (docs/eval.md)')
    .argument('[suite]', 'the suite file, e.g. examples/eval/suite.yaml')
    .option('--out <dir>', "where the suite's projects and results go (default: output/eval-<suite name>)")
    .option('--concurrency <n>', "how many runs at once (default: the suite's)")
    .option('--llm <provider>', 'the model of specs without a scenario: openai | scripted:<file>')
    .option('--model <name>', 'model name for the openai provider')
    .option('--compare <files...>', 'show two results files side by side: --compare a.json b.json')
    .option('--queue', 'hand the runs to the workers of the job queue (SOPWORKS_REDIS_URL; docs/scaling.md)', false)
    .option('--allow-unsandboxed', 'run generated code that cannot be sandboxed here with your rights, only limited (docs/sandbox.md)', false)
    .option('--chaos <rate>', "spoil this share (0 to 1) of the scenarios' replies the ways real models do; each spec also runs clean, to compare")
    .option('--seed <n>', "the first repeat's chaos seed; repeat i uses seed + i - 1 (default 1)")
    .option('--repeat <n>', 'run every spec n times (with --chaos, each with its own seed)')
    .option('--sops <dir>', 'folder of company.yaml and the SOP files', path.join(PACKAGE_ROOT, 'sops'))
    .option('--roles <dir>', 'folder of role profiles and prompt templates', path.join(PACKAGE_ROOT, 'roles'))
    .action(async (suite: string | undefined, options: unknown) => {
      exitCode = await (await import('./eval-command.ts')).evalCommand(suite, options, io);
    });

  program
    .command('worker')
    .description('run queued runs, several at once, until stopped (SOPWORKS_REDIS_URL; docs/scaling.md)')
    .option('--concurrency <n>', 'how many runs at once', '2')
    .option('--lock-ms <ms>', "how long a job stays locked without renewal: a dead worker's runs are taken over after it", '30000')
    .option('--runs-root <dir>', "a folder jobs' runs may be made in (repeatable; default: output)", collect, [])
    .option('--company-root <dir>', "a folder jobs' SOPs, roles and scenarios may be read from (repeatable; default: the package's)", collect, [])
    .option('--allow-unsandboxed', 'let jobs that ask for it run generated code unsandboxed (docs/sandbox.md)', false)
    .option('--allow-base-url <url>', "another endpoint a job's roles may call with this worker's keys (repeatable)", collect, [])
    .option('--allow-model <name>', 'the only models jobs may ask (repeatable; default: any at an allowed endpoint)', collect, [])
    .action(async (options: unknown) => {
      exitCode = await (await import('./worker-command.ts')).workerCommand(options, io);
    });

  program
    .command('submit')
    .description('check a run as `run` would and put it on the job queue for a worker')
    .argument('[spec...]', 'what to build, in one line (a scripted scenario may supply it)')
    .option('--name <project>', 'project folder name (default: from the spec)')
    .option('--out <dir>', 'where projects are created: a folder every worker reaches at the same path', 'output')
    .option('--llm <provider>', 'openai | scripted:<scenario file>')
    .option('--model <name>', 'model name for the openai provider')
    .option('--allow-unsandboxed', "run generated code that cannot be sandboxed with the worker's rights, only limited", false)
    .option('--sops <dir>', 'folder of company.yaml and the SOP files', path.join(PACKAGE_ROOT, 'sops'))
    .option('--roles <dir>', 'folder of role profiles and prompt templates', path.join(PACKAGE_ROOT, 'roles'))
    .action(async (spec: string[], options: unknown) => {
      exitCode = await (await import('./submit-command.ts')).submitCommand(spec, options, io);
    });

  program
    .command('jobs')
    .description('the runs on the job queue: queued, running, finished, failed')
    .option('--limit <n>', 'at most this many jobs per state', '200')
    .option('--json', 'as JSON', false)
    .action(async (options: unknown) => {
      exitCode = await (await import('./jobs-command.ts')).jobsCommand(options, io);
    });

  registerSopCommand(program, { sops: path.join(PACKAGE_ROOT, 'sops'), roles: path.join(PACKAGE_ROOT, 'roles') }, io, (code) => (exitCode = code));
  registerSandboxCommand(program, io, (code) => (exitCode = code), PACKAGE_ROOT);
  registerModelsCommand(program, io, (code) => (exitCode = code));

  try {
    await loadSettings();
    await program.parseAsync(argv);
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return EXIT.done;
      if (wantsJson(argv)) io.out(jsonLine({ type: 'error', code: 'USAGE', message: error.message, hint: null, exitCode: EXIT.usage }));
      return EXIT.usage;
    }
    const json = wantsJson(argv);
    if (SopworksError.isInstance(error)) {
      io.err(`${pc.red('error')} ${error.message}`);
      if (error.hint) io.err(`  ${error.hint}`);
      const code = USAGE_ERRORS.includes(error.code) ? EXIT.usage : EXIT.failed;
      if (json) io.out(jsonLine({ type: 'error', code: error.code, message: error.message, hint: error.hint ?? null, exitCode: code }));
      return code;
    }
    io.err(`${pc.red('error')} ${(error as Error)?.stack ?? String(error)}`);
    if (json) io.out(jsonLine({ type: 'error', code: 'UNEXPECTED', message: (error as Error)?.message ?? String(error), hint: null, exitCode: EXIT.failed }));
    return EXIT.failed;
  }
}
