/**
 * Jobs are signed: an HMAC-SHA256, with the secret every submitter and worker shares
 * (`SOPWORKS_QUEUE_SECRET`), over the job's id and every field a worker acts on. Redis is not a place
 * of trust — anything that reaches it (a process on the host's loopback, generated code in a weaker
 * sandbox) can add a job or change one — so a worker runs a job only when its signature is the one
 * the secret gives. An unsigned job, a forged one, or a signed one whose fields or id were changed
 * afterwards is refused (process-job.ts), and stays in `sopworks jobs` as failed, saying why.
 */
import crypto from 'node:crypto';
import { z } from 'zod';
import { SopworksError } from '../../ground/errors.ts';
import { JobData, JobFields } from './job-data.ts';

export const QUEUE_SECRET_ENV = 'SOPWORKS_QUEUE_SECRET';
/** 32 characters: 128 bits as hex, or more. */
const MIN_SECRET = 32;

const Env = z.object({
  SOPWORKS_QUEUE_SECRET: z.string().optional(),
});

/** The shared secret; refused (exit 2) when unset or too short to be one. */
export function queueSecret(env: NodeJS.ProcessEnv = process.env): string {
  const secret = Env.parse(env).SOPWORKS_QUEUE_SECRET?.trim() ?? '';
  if (secret.length < MIN_SECRET) {
    throw new SopworksError(
      'CONFIG_INVALID',
      secret === ''
        ? `${QUEUE_SECRET_ENV} is not set: jobs on the queue are signed with it, and a worker runs no job it cannot verify.`
        : `${QUEUE_SECRET_ENV} is ${secret.length} characters long; a queue secret has at least ${MIN_SECRET}.`,
      {
        hint: `Make one (openssl rand -hex 32) and give the same value to every submitter and worker, in the environment or .env (docs/scaling.md).`,
      },
    );
  }
  return secret;
}

/** The signed text: a version tag, the job's id, then each field in the schema's order. */
function signedText(jobId: string, fields: JobFields): string {
  const shape = Object.keys(JobFields.shape) as (keyof JobFields)[];
  return JSON.stringify(['sopworks-job/1', jobId, ...shape.map((key) => fields[key] ?? null)]);
}

export function signJob(jobId: string, fields: JobFields, secret: string): string {
  return crypto.createHmac('sha256', secret).update(signedText(jobId, fields)).digest('hex');
}

export type JobVerdict = { ok: true; data: JobData } | { ok: false; reason: string };

/** Whether a job read from Redis is one a holder of the secret made, as it was made. */
export function verifyJob(jobId: string | undefined, raw: unknown, secret: string): JobVerdict {
  const signature = (raw as { signature?: unknown } | null)?.signature;
  if (typeof signature !== 'string' || signature === '')
    return { ok: false, reason: `the job is not signed: it was not made by \`sopworks submit\` with ${QUEUE_SECRET_ENV}` };
  const parsed = JobData.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, reason: `the job's data is not a sopworks run (${issue?.path.join('.') || 'data'}: ${issue?.message})` };
  }
  const expected = Buffer.from(signJob(jobId ?? '', parsed.data, secret), 'hex');
  const given = Buffer.from(/^[0-9a-f]{64}$/.test(signature) ? signature : '', 'hex');
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected))
    return {
      ok: false,
      reason: `the job's signature does not match: it was changed after it was signed, or signed with another ${QUEUE_SECRET_ENV} than this worker's`,
    };
  return { ok: true, data: parsed.data };
}
