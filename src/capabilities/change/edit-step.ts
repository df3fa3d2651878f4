/**
 * `edit`: the model changes the current file with search/replace blocks (or a small file whole), applied
 * to the file as it is (apply-edits.ts); a block that does not fit is re-asked, nothing is applied in part.
 */
import { z } from 'zod';
import type { Code } from '../../documents/schemas.ts';
import type { EditsReply } from '../../documents/edits.ts';
import { SopworksError } from '../../ground/errors.ts';
import { askCounter, countOf } from '../../engine/effect-identity.ts';
import type { RoleContext } from '../../engine/sop/role-context.ts';
import type { Ports } from '../../engine/steps/ports.ts';
import { defineStep } from '../../engine/steps/step.ts';
import { applyEdits } from './apply-edits.ts';
import { currentChangeTask } from './change-views.ts';
import { unifiedDiff } from './render-diff.ts';

export const edit = defineStep({
  description:
    'Ask the model to change the current file: render roles/<role>/<action>.hbs with the listed views and `original` (the file as it is: ' +
    'the slot `onto` if kept, else its last Code, else the work tree; empty for a new file), and apply the reply — SEARCH/REPLACE blocks, ' +
    'or a small file whole. A block whose SEARCH text is not found, or found more than once, is re-asked with the reason and the lines ' +
    'around the nearest match (bounded like any invalid reply); nothing is ever applied in part. The output is `path`, `content`, `before` and `diff`.',
  params: z
    .object({
      action: z.string().regex(/^[a-z][a-z0-9_]*$/, 'use lower-case letters, digits and underscores'),
      key: z.literal('current').default('current'),
      with: z.array(z.string().min(1)).default([]),
      by: z.enum(['writer', 'reviewer']).default('writer'),
      onto: z.string().min(1).nullable().default(null),
    })
    .strict(),
  output: z.object({ path: z.string(), content: z.string(), before: z.string().nullable(), diff: z.string() }),
  effect: 'model-call',
  names: { views: ['with'], currentKey: 'key' },
  prompt: (params) => ({ action: params.action, output: 'edits', outputParam: 'action', with: [...params.with, 'original'] }),
  async run({ params, context, view, signal }, ports) {
    const role = ports.role.profile.id;
    const file = context.current;
    if (!file) throw new SopworksError('SOP_INVALID', `${role}: step ${params.action} needs a current file (run it in a per-file SOP).`);
    const { before, original } = await startingPoint(file, params.onto, context, ports);
    const variables = Object.fromEntries(params.with.map((name) => [name, view(name)]));
    const refusal = ports.policy.writeRefusals(role, [file]);
    if (refusal.length > 0) throw new SopworksError('PATH_UNSAFE', `${role} may not change ${file}: ${refusal.join('; ')}.`);
    const reply = (await ports.model.ask({
      call: { role, action: params.action, key: file },
      profile: ports.role.fileSeats?.[params.by] ?? ports.role.profile,
      variables: { ...variables, original: { path: file, content: original }, key: file },
      output: { kind: 'edits', path: file },
      occurrence: countOf(context.asks, askCounter(params.action, file)),
      accept: (value) => {
        const applied = applyEdits(original, value as EditsReply);
        return applied.ok ? null : applied.reason;
      },
      signal,
    })) as EditsReply;
    const applied = applyEdits(original, reply);
    if (!applied.ok) throw new SopworksError('REPLY_INVALID', applied.reason); // accepted above: cannot happen unless the file changed meanwhile
    return { path: file, content: applied.content, before, diff: unifiedDiff(file, before, applied.content) };
  },
});

/**
 * The file the edit starts from: the slot `onto` when kept (a revision), else its last Code, else the
 * work tree (a renamed file: at its old path); `before` is what the diff is against.
 */
async function startingPoint(file: string, onto: string | null, context: RoleContext, ports: Ports): Promise<{ before: string | null; original: string }> {
  const kept = onto && onto in context.slots ? (context.slots[onto] as { content: string; before?: string | null }) : null;
  if (kept) return { before: kept.before ?? null, original: kept.content };
  const committed = [...ports.board.all<Code>('Code')].reverse().find((m) => m.payload.path === file)?.payload.content;
  if (committed !== undefined) return { before: committed, original: committed };
  // A file renamed by its task starts as the file at its old path.
  const task = currentChangeTask(ports.board, file);
  const onDisk = await ports.repository.readFile(task.op === 'rename' && task.from ? task.from : file);
  return { before: onDisk, original: onDisk ?? '' };
}
