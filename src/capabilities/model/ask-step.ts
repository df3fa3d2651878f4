/** `ask`: one model call through the gateway, its reply validated as the step's output. */
import { fromPromise } from 'xstate';
import { z } from 'zod';
import { SopworksError } from '../../ground/errors.ts';
import type { OutputSpec } from './gateway.ts';
import { askCounter, countOf } from '../../engine/effect-identity.ts';
import { checkRelativePath } from '../../ground/files/safe-path.ts';
import { resolveCallKey } from '../../engine/sop/call-key.ts';
import type { RoleServices } from '../../engine/sop/services.ts';
import { resolveView } from '../artifacts/views.ts';
import type { VocabularyEntry } from '../../engine/steps/actions.ts';
import { askSchemas } from '../../company/vocabulary/ask-schemas.ts';
import { refusalOfFiles } from '../policy/file-refusals.ts';
import { scopeOf, type Params, type StepInput } from '../../engine/steps/step.ts';

/** An `ask` step's key: `current` (the current file), or a fixed project path, normalised. */
const CallKey = z.string().transform((value, ctx) => {
  if (value === 'current') return value;
  const checked = checkRelativePath(value);
  if (checked.ok) return checked.path;
  ctx.addIssue({ code: 'custom', message: `use current, or a path inside the project: unsafe path "${value}": ${checked.reason}` });
  return z.NEVER;
});

export const ask = {
  description:
    'Ask the model: render roles/<role>/<action>.hbs with the listed views, and validate the reply as `output` ' +
    '(a structured artifact such as PRD or Review; `code` for one file whose path is the key; `files` for several). ' +
    '`key` tells calls of one action apart: `current` (the current file) or a fixed project path such as docs/USER_GUIDE.md. ' +
    "`by`, in a per-file SOP: who is asked — the file's `writer` (default) or its `reviewer`, another of the role's people " +
    'when the run hires several (`--engineers N`); the same one otherwise.',
  params: z
    .object({
      action: z.string().regex(/^[a-z][a-z0-9_]*$/, 'use lower-case letters, digits and underscores'),
      output: z.string().min(1),
      /** `current`: the call's key is the current file (per-file steps); otherwise a fixed project path. */
      key: CallKey.nullable().default(null),
      with: z.array(z.string().min(1)).default([]),
      by: z.enum(['writer', 'reviewer']).default('writer'),
    })
    .strict()
    .superRefine((p, ctx) => {
      if (p.output !== 'code' && p.output !== 'files' && !(p.output in askSchemas)) {
        ctx.addIssue({
          code: 'custom',
          path: ['output'],
          message: `unknown output "${p.output}"; use code, files or one of ${Object.keys(askSchemas).join(', ')}`,
        });
      }
      if (p.output === 'code' && p.key === null) {
        ctx.addIssue({
          code: 'custom',
          path: ['key'],
          message: 'output "code" writes the file named by the key: add key: current, or a path such as key: docs/USER_GUIDE.md',
        });
      }
    }),
} satisfies VocabularyEntry;

export const askActor = (services: RoleServices) =>
  fromPromise<unknown, StepInput<Params<typeof ask>>>(async ({ input: { params, context }, signal }) => {
    const key = resolveCallKey(params.key, context);
    if (params.key === 'current' && key === null) {
      throw new SopworksError('SOP_INVALID', `${services.profile.id}: step ${params.action} needs a current file, but none is set (use nextTask first).`);
    }
    const output: OutputSpec =
      params.output === 'code'
        ? { kind: 'code', path: key! }
        : params.output === 'files'
          ? { kind: 'files' }
          : { kind: 'json', name: params.output, schema: askSchemas[params.output]! };
    const variables = Object.fromEntries(params.with.map((name) => [name, resolveView(name, scopeOf(services, context))]));
    return services.gateway.ask({
      call: { role: services.profile.id, action: params.action, key },
      profile: services.fileSeats?.[params.by] ?? services.profile,
      variables: { ...variables, key },
      output,
      occurrence: countOf(context.asks, askCounter(params.action, key)),
      // A file the role may not write goes back to it with the reason, like any invalid reply.
      accept: output.kind === 'json' ? undefined : (value) => refusalOfFiles(services, value),
      signal,
    });
  });
