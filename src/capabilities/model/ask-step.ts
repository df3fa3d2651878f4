/** `ask`: one model call through the gateway, its reply validated as the step's output. */
import { z } from 'zod';
import { askCounter, countOf } from '../../engine/effect-identity.ts';
import { resolveCallKey } from '../../engine/sop/index.ts';
import { defineStep, type OutputSpec, type Ports } from '../../engine/steps/index.ts';
import { SopworksError } from '../../ground/errors.ts';
import { checkRelativePath } from '../../ground/files/index.ts';

/** An `ask` step's key: `current` (the current file), or a fixed project path, normalised. */
const CallKey = z.string().transform((value, ctx) => {
  if (value === 'current') return value;
  const checked = checkRelativePath(value);
  if (checked.ok) return checked.path;
  ctx.addIssue({ code: 'custom', message: `use current, or a path inside the project: unsafe path "${value}": ${checked.reason}` });
  return z.NEVER;
});

/** `outputs`: the structured outputs a step may ask for by name (the message types' schemas and a few more), besides `code` and `files`. */
export function askStep(outputs: Readonly<Record<string, z.ZodType>>) {
  return defineStep({
    description:
      'Ask the model: render roles/<role>/<action>.hbs with the listed views, and validate the reply as `output` ' +
      '(a structured artifact such as PRD or Review; `code` for one file whose path is the key; `files` for several). ' +
      '`key` tells calls of one action apart: `current` (the current file) or a fixed project path such as docs/USER_GUIDE.md. ' +
      "`by`, in a per-file SOP: who is asked — the file's `writer` (default) or its `reviewer`, never the writer: the next " +
      "of the role's people when the run hires several (`--engineers N`), else the role's second person (role.yaml's " +
      "`reviewer`), who writes no files; the reviewer is told whose work it judges, and given the reviewer's goal. " +
      '`within`: a view or slot of files whose paths are the only ones a `files` reply may hold (the rule is stated in the prompt).',
    params: z
      .object({
        action: z.string().regex(/^[a-z][a-z0-9_]*$/, 'use lower-case letters, digits and underscores'),
        output: z.string().min(1),
        /** `current`: the call's key is the current file (per-file steps); otherwise a fixed project path. */
        key: CallKey.nullable().default(null),
        with: z.array(z.string().min(1)).default([]),
        by: z.enum(['writer', 'reviewer']).default('writer'),
        /** A view or slot of files: a `files` reply may hold only those paths (QA rewriting its own tests, never the repository's). */
        within: z.string().min(1).nullable().default(null),
      })
      .strict()
      .superRefine((p, ctx) => {
        if (p.output !== 'code' && p.output !== 'files' && !(p.output in outputs)) {
          ctx.addIssue({
            code: 'custom',
            path: ['output'],
            message: `unknown output "${p.output}"; use code, files or one of ${Object.keys(outputs).join(', ')}`,
          });
        }
        if (p.within !== null && p.output !== 'files') {
          ctx.addIssue({ code: 'custom', path: ['within'], message: 'within limits the paths of a `files` reply: use it with output: files' });
        }
        if (p.output === 'code' && p.key === null) {
          ctx.addIssue({
            code: 'custom',
            path: ['key'],
            message: 'output "code" writes the file named by the key: add key: current, or a path such as key: docs/USER_GUIDE.md',
          });
        }
      }),
    // The reply was parsed and validated by the gateway against what `output` names.
    output: z.unknown(),
    effect: 'model-call',
    names: { views: ['with', 'within'], currentKey: 'key' },
    prompt: (params) => ({ action: params.action, output: params.output, outputParam: 'output', with: params.with }),
    async run({ params, context, view, signal, judgedBy, revisionsLeft }, ports) {
      const role = ports.role.profile.id;
      const key = resolveCallKey(params.key, context);
      if (params.key === 'current' && key === null) {
        throw new SopworksError('SOP_INVALID', `${role}: step ${params.action} needs a current file, but none is set (use nextTask first).`);
      }
      if (params.output === 'code') refuseUnwritableKey(ports, params.action, key!);
      const output: OutputSpec =
        params.output === 'code'
          ? { kind: 'code', path: key! }
          : params.output === 'files'
            ? { kind: 'files' }
            : { kind: 'json', name: params.output, schema: outputs[params.output]! };
      const variables = Object.fromEntries(await Promise.all(params.with.map(async (name) => [name, await view(name)])));
      const within = params.within === null ? null : pathsOf(await view(params.within));
      return ports.model.ask({
        call: { role, action: params.action, key },
        profile: ports.role.fileSeats?.[params.by] ?? ports.role.profile,
        variables: { ...variables, documents: await view('documents'), key, revisions: revisionsOf(revisionsLeft ?? null) },
        output,
        occurrence: countOf(context.asks, askCounter(params.action, key)),
        // A file the role may not write goes back to it with the reason, like any invalid reply.
        accept: output.kind === 'json' ? undefined : (value) => refusalOfFiles(ports, value) ?? refusalOutside(within, value),
        rules: [
          ...(output.kind === 'files' ? [`Write only files you may write: ${ports.policy.writeRule(role).text}.`] : []),
          ...(within ? [withinRule(within)] : []),
          ...(await judgedBy()),
        ],
        signal,
      });
    },
  });
}

/**
 * What a prompt says of the revisions still allowed after this step (`{{> review-round}}`): how many, and
 * whether this is the last round — a review whose issues then go on as open issues. Null: no bound follows.
 */
function revisionsOf(left: number | null): { left: number; last: boolean; more: string } | null {
  if (left === null) return null;
  return { left, last: left === 0, more: `${left} more revision${left === 1 ? '' : 's'}` };
}

/**
 * A `code` step writes the file its key names, whatever the reply: when the role may not write it, no
 * reply can pass — a conflict between the SOP (which gave it the file) and the policy, not the model's.
 */
function refuseUnwritableKey(ports: Ports, action: string, key: string): void {
  const refused = ports.policy.writeRefusals(ports.role.profile.id, [key]);
  if (refused.length === 0) return;
  throw new SopworksError('CHECKS_CONFLICT', `No reply to ${action} can pass: it must be ${key}, and ${refused.join('; ')}.`, {
    hint: `This is a fault of the SOP and its policy (${ports.policy.source}), not of the model: give the file to a role that may write it, or let this one.`,
  });
}

/** Why the role may not write the files of a `code` or `files` reply, or null when it may write them all. */
function refusalOfFiles(ports: Ports, value: unknown): string | null {
  const files = (Array.isArray(value) ? value : [value]) as { path: string }[];
  const refusals = ports.policy.writeRefusals(
    ports.role.profile.id,
    files.map((f) => f.path),
  );
  return refusals.length > 0 ? `${refusals.join('; ')}. Reply only with files you may write.` : null;
}

/** The paths of a view's files (a list of files, or an object holding one as `files`). */
function pathsOf(value: unknown): string[] {
  const files = Array.isArray(value) ? value : ((value as { files?: unknown } | null)?.files ?? []);
  return (Array.isArray(files) ? files : []).map((f) => (f as { path?: unknown }).path).filter((p): p is string => typeof p === 'string');
}

const withinRule = (paths: readonly string[]): string =>
  paths.length > 0
    ? `Reply only with files among these, each whole: ${paths.map((p) => `\`${p}\``).join(', ')}; no other file is this step's to write.`
    : "No file is this step's to write.";

/** A `within` step's reply naming a path outside its files: the rule, said again. */
function refusalOutside(within: readonly string[] | null, value: unknown): string | null {
  if (within === null) return null;
  const files = (Array.isArray(value) ? value : [value]) as { path: string }[];
  const outside = files.map((f) => f.path).filter((p) => !within.includes(p));
  return outside.length > 0
    ? `${outside.map((p) => `\`${p}\``).join(', ')} ${outside.length === 1 ? 'is' : 'are'} not among the files this step may write. ${withinRule(within)}`
    : null;
}
