/**
 * `edit`: the model changes the current file with search/replace blocks (or a small file whole), applied
 * to the file as it is (apply-edits.ts); a block that does not fit is re-asked, nothing is applied in part.
 */
import { z } from 'zod';
import { type Code, type EditsReply, placeholdersIn, type RepositoryMap } from '../../documents/index.ts';
import { askCounter, countOf } from '../../engine/effect-identity.ts';
import { defineStep, type Ports, type RoleContext } from '../../engine/steps/index.ts';
import { SopworksError } from '../../ground/errors.ts';
import { excerpt, isProse, namesMentioned, SHOWN_CHARS } from '../../ground/text/index.ts';
import { applyEdits } from './apply-edits.ts';
import { currentChangeTask } from './change-views.ts';
import { originalContent } from './original-content.ts';
import { changedLines, unifiedDiff } from './render-diff.ts';

export const edit = defineStep({
  description:
    'Ask the model to change the current file: render roles/<role>/<action>.hbs with the listed views and `original` (the file as this work found it: ' +
    'the slot `onto` if kept, else its last Code before the message being worked on, else the file at the base; empty for a new file — ' +
    'the same on resume as in the first run), and apply the reply — SEARCH/REPLACE blocks, ' +
    'or a small file whole. A block whose SEARCH text is not found, or found more than once, is re-asked with the reason and the lines ' +
    "around the nearest match (bounded like any invalid reply); nothing is ever applied in part. The output is `path`, `content`, `before`, `diff`, `inheritedPlaceholders` (the TODOs the file had before: a repository's own, not counted against the run) and `changed` (where each change starts in the new content; null for a new file).",
  params: z
    .object({
      action: z.string().regex(/^[a-z][a-z0-9_]*$/, 'use lower-case letters, digits and underscores'),
      key: z.literal('current').default('current'),
      with: z.array(z.string().min(1)).default([]),
      by: z.enum(['writer', 'reviewer']).default('writer'),
      onto: z.string().min(1).nullable().default(null),
    })
    .strict(),
  output: z.object({
    path: z.string(),
    content: z.string(),
    before: z.string().nullable(),
    diff: z.string(),
    inheritedPlaceholders: z.array(z.string()).nullable(),
    changed: z.array(z.number().int().min(0)).nullable(),
  }),
  effect: 'model-call',
  names: { views: ['with'], currentKey: 'key' },
  prompt: (params) => ({ action: params.action, output: 'edits', outputParam: 'action', with: [...params.with, 'original'] }),
  async run({ params, context, view, signal, judgedBy }, ports) {
    const role = ports.role.profile.id;
    const file = context.current;
    if (!file) throw new SopworksError('SOP_INVALID', `${role}: step ${params.action} needs a current file (run it in a per-file SOP).`);
    const { before, original } = await startingPoint(file, params.onto, context, ports);
    const variables = Object.fromEntries(await Promise.all(params.with.map(async (name) => [name, await view(name)])));
    const refusal = ports.policy.writeRefusals(role, [file]);
    if (refusal.length > 0) throw new SopworksError('PATH_UNSAFE', `${role} may not change ${file}: ${refusal.join('; ')}.`);
    const reply = (await ports.model.ask({
      call: { role, action: params.action, key: file },
      profile: ports.role.fileSeats?.[params.by] ?? ports.role.profile,
      variables: {
        ...variables,
        documents: await view('documents'),
        original: shownToEdit(file, original, currentChangeTask(ports.board, file).description),
        key: file,
      },
      output: { kind: 'edits', path: file },
      occurrence: countOf(context.asks, askCounter(params.action, file)),
      accept: (value) => {
        const applied = applyEdits(original, value as EditsReply);
        return applied.ok ? null : applied.reason;
      },
      rules: await judgedBy(),
      signal,
    })) as EditsReply;
    const applied = applyEdits(original, reply);
    if (!applied.ok) throw new SopworksError('REPLY_INVALID', applied.reason); // accepted above: cannot happen unless the file changed meanwhile
    // A repository's own TODOs are not this change's: the figures count only the placeholders it adds.
    const inheritedPlaceholders = before === null ? null : placeholdersIn(file, before).map((p) => p.text);
    return {
      path: file,
      content: applied.content,
      before,
      diff: unifiedDiff(file, before, applied.content),
      inheritedPlaceholders,
      changed: before === null ? null : changedLines(before, applied.content),
    };
  },
});

/**
 * The file the edit starts from: the slot `onto` when kept (a revision), else the file as this work found it
 * (original-content.ts: its last Code before the message worked on, else the base — the same on resume as in
 * the first run); `before` is what the diff is against.
 */
async function startingPoint(file: string, onto: string | null, context: RoleContext, ports: Ports): Promise<{ before: string | null; original: string }> {
  const kept = onto && onto in context.slots ? (context.slots[onto] as { content: string; before?: string | null }) : null;
  if (kept) return { before: kept.before ?? null, original: kept.content };
  // A file renamed by its task starts as the file at its old path.
  const task = currentChangeTask(ports.board, file);
  const found = await originalContent({
    file,
    source: task.op === 'rename' && task.from ? task.from : file,
    codes: ports.board.all<Code>('Code'),
    trigger: context.trigger,
    root: ports.repository.root,
    base: ports.board.latest<RepositoryMap>('RepositoryMap')?.payload.base ?? null,
  });
  return { before: found, original: found ?? '' };
}

/**
 * The file as its editor's prompt shows it: whole, or — longer than SHOWN_CHARS — its start, the
 * parts around the definitions its task names, and its end (`inPart` says so, and how many lines it has).
 * The edit still applies to the whole file.
 */
export function shownToEdit(
  file: string,
  content: string,
  task: string,
): { path: string; content: string; inPart: { lines: number; around: string[] } | null } {
  if (content.length <= SHOWN_CHARS) return { path: file, content, inPart: null };
  const shown = excerpt(content, SHOWN_CHARS, namesMentioned(task, content, isProse(file)));
  const lines = content.split('\n').length - (content.endsWith('\n') ? 1 : 0);
  return { path: file, content: shown.text, inPart: { lines, around: shown.found } };
}
