/**
 * `sopworks submit [spec...]`: checks a run as `sopworks run` would — the spec, the scenario, the SOPs,
 * the project name and folder — and puts it on the job queue for a `sopworks worker`; nothing runs here.
 */
import path from 'node:path';
import { z } from 'zod';
import { loadScenario, parseLlmFlag, readSettings } from '../../capabilities/model/index.ts';
import { loadCompany, readInstructionsFile } from '../../company/index.ts';
import { type CompanyDefinition, checkUntil } from '../../engine/run/index.ts';
import { formatDiagnostic } from '../../engine/sop/index.ts';
import { SopworksError } from '../../ground/errors.ts';
import { checkProjectName, projectNameFromSpec } from '../../ground/files/index.ts';
import { checkSpec, gatesOf, parseRequest, QueuedFlagsAsk } from '../../session/index.ts';
import { runState } from '../eval/index.ts';
import {
  connectRedis,
  MAX_JOB_INSTRUCTIONS,
  openQueue,
  type QueuedRunFlags,
  queueErrorLine,
  queueSecret,
  redisUrl,
  redisWaitMs,
  shownUrl,
  submitRun,
} from '../queue/index.ts';
import { EXIT, type Output } from './output.ts';

const SubmitOptions = QueuedFlagsAsk.extend({
  name: z.string().optional(),
  out: z.string().min(1),
  llm: z.string().optional(),
  model: z.string().min(1).optional(),
  allowUnsandboxed: z.boolean().default(false),
  sops: z.string().min(1),
  roles: z.string().min(1),
  instructions: z.string().min(1).optional(),
});

export async function submitCommand(specWords: string[], rawOptions: unknown, io: Output): Promise<number> {
  const options = parseRequest(SubmitOptions, rawOptions, 'submit');
  const secret = queueSecret();
  const settings = readSettings();
  const choice = parseLlmFlag(options.llm, settings);
  if (choice.kind === 'local') {
    throw new SopworksError('USAGE', '--llm local cannot go through the queue: a worker asks its own endpoint (openai) or a scenario file.', {
      hint: "Use --llm openai (the workers' OPENAI_* settings) or --llm scripted:<file>, or run it here with `sopworks run --llm local`.",
    });
  }
  const instructions = options.instructions === undefined ? null : await readJobInstructions(options.instructions);
  const scenario = choice.kind === 'scripted' ? await loadScenario(choice.file) : null;
  const spec = checkSpec((specWords.join(' ').trim() || scenario?.spec || '').trim(), 'submit');
  const name = checkProjectName(options.name ?? scenario?.name ?? projectNameFromSpec(spec));
  // The SOPs are checked here, so a job a worker cannot run is never queued.
  const company = await loadCompany(options.sops, options.roles);
  for (const warning of company.warnings) io.err(formatDiagnostic(warning));
  const flags = await queuedFlags(options, company);
  const out = path.resolve(options.out);
  const projectDir = path.join(out, name);
  const state = await runState(projectDir);
  if (state.kind === 'finished') {
    throw new SopworksError('OUTPUT_EXISTS', `The project ${projectDir} already exists (outcome ${state.outcome}); nothing was queued.`, {
      hint: 'Pick another --name, or remove the folder first.',
    });
  }
  const url = redisUrl();
  const redis = await connectRedis(url, { waitMs: redisWaitMs(), onWaiting: (line) => io.err(line), notice: (line) => io.err(line) });
  const queue = openQueue(redis, (error) => io.err(queueErrorLine(error)));
  try {
    const { job, existing } = await submitRun(
      queue,
      {
        name,
        spec,
        scenario: choice.kind === 'scripted' ? path.resolve(choice.file) : null,
        out,
        llm: choice.kind === 'openai' ? 'openai' : null,
        model: options.model ?? null,
        sops: path.resolve(options.sops),
        roles: path.resolve(options.roles),
        allowUnsandboxed: options.allowUnsandboxed,
        instructions,
        flags,
      },
      secret,
    );
    io.out(
      existing
        ? `Job ${job.id} for ${projectDir} is already on the queue (${await job.getState()}).`
        : `Queued job ${job.id}: ${projectDir} (${shownUrl(url)}).`,
    );
    if (state.kind === 'resumable') io.out('The project stopped before its outcome: a worker resumes it.');
    io.out('Follow it with `sopworks jobs`; a worker (`sopworks worker`) must reach this folder at the same path.');
    return EXIT.done;
  } finally {
    await queue.close();
    await redis.quit().catch(() => {});
  }
}

/**
 * The flags of `run` given to submit, checked as `run` checks them (a gate or a stop point the company
 * has not is refused here, not by a worker), as the job carries them: the ones given, null when none.
 */
async function queuedFlags(options: z.output<typeof SubmitOptions>, company: CompanyDefinition): Promise<QueuedRunFlags | null> {
  await gatesOf(options.approve, 'submit');
  checkUntil(company, options.until);
  const flags: QueuedRunFlags = {
    ...(options.until ? { until: options.until } : {}),
    ...(options.approve ? { approve: options.approve } : {}),
    ...(options.budget === null ? {} : { budget: options.budget }),
    ...(options.maxTokens === null ? {} : { maxTokens: options.maxTokens }),
    ...(options.maxTime === null ? {} : { maxTime: options.maxTime.text }),
    // One Engineer is run's default: a job that asks no more carries none.
    ...(options.engineers === null || options.engineers === 1 ? {} : { engineers: options.engineers }),
    ...(options.modelFor.length > 0 ? { modelFor: options.modelFor } : {}),
  };
  return Object.keys(flags).length > 0 ? flags : null;
}

/** The instructions file's text, checked as `run --instructions` checks it, and within what a job carries. */
async function readJobInstructions(file: string): Promise<string> {
  const text = await readInstructionsFile(file);
  if (text.length > MAX_JOB_INSTRUCTIONS) {
    throw new SopworksError('USAGE', `The instructions file ${file} is ${text.length} characters long; a queued run carries at most ${MAX_JOB_INSTRUCTIONS}.`, {
      hint: 'Keep the rules the roles need (a run shows them the first 2,000 tokens), or run it here with `sopworks run --instructions`.',
    });
  }
  return text;
}
