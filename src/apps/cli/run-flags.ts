/**
 * The flags `run` and `change` take alike, checked once (zod, through parse-options.ts): the gates to
 * hold, the limits, recording, the sandbox, the output, the company folders and chaos.
 */
import { z } from 'zod';
import { GATES, type Gate } from '../../capabilities/approvals/index.ts';
import { ChaosOptions } from './chaos-option.ts';
import { duration, positiveInteger, positiveNumber } from './parse-options.ts';

/** `--approve prd,design`: the gates to hold; an unknown one is named. */
const approveGates = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined) return [] as Gate[];
    const gates = v
      .split(',')
      .map((g) => g.trim())
      .filter(Boolean);
    const unknown = gates.filter((g) => !(GATES as readonly string[]).includes(g));
    if (unknown.length > 0 || gates.length === 0) {
      ctx.addIssue({
        code: 'custom',
        message: `unknown gate ${unknown.map((g) => `"${g}"`).join(', ') || '(none)'}; use a comma list of ${GATES.join(', ')}`,
      });
      return z.NEVER;
    }
    return gates as Gate[];
  });

export const StartFlags = {
  approve: approveGates,
  yes: z.boolean().default(false),
  /** Let the roles ask the person questions first (a SOP's clarify step). */
  clarify: z.boolean().default(false),
  budget: positiveNumber('US dollars'),
  maxTokens: positiveInteger('tokens'),
  maxTime: duration(),
  record: z.string().min(1).optional(),
  name: z.string().optional(),
  out: z.string().min(1),
  llm: z.string().optional(),
  model: z.string().min(1).optional(),
  force: z.boolean().default(false),
  allowUnsandboxed: z.boolean().default(false),
  sops: z.string().min(1),
  roles: z.string().min(1),
  specFile: z.string().min(1).optional(),
  instructions: z.string().min(1).optional(),
  json: z.boolean().default(false),
  ...ChaosOptions,
};
