/**
 * `eachFile`: every queued file worked on by a per-file SOP of its own, up to --concurrency at once, in
 * dependency order (dag-scheduler.ts); the files' messages go out in queue order whatever order they finish in.
 */

import { type AnyStateMachine, createActor } from 'xstate';
import { z } from 'zod';
import { CodeFile, Removal, type TaskGraph } from '../../documents/index.ts';
import { asReviewerOf, type RoleProfile, reviewerOf, stateName } from '../../engine/roles/index.ts';
import { defineStep, EachFileOutput, type Ports, type Publish, type RoleContext } from '../../engine/steps/index.ts';
import { SopworksError } from '../../ground/errors.ts';
import { type JobHandle, runOverDag } from './dag-scheduler.ts';

export const eachFile = defineStep({
  description:
    'Work on every queued file with a per-file SOP (`sop`: a file next to this SOP, whose machine ends in a final state), ' +
    'up to --concurrency files at once: a file starts as soon as the files it depends on are written, and the messages ' +
    "the files' machines publish go out in queue order (dependency order) whatever order they finish in. Each file's " +
    'machine starts with the file as `current` and sees the final content of the files it depends on; when every file ' +
    "has ended, `done` lists the files written, and their model calls and messages count as this role's. " +
    '`order: none` starts the files in queue order without waiting for their dependencies (work that does not build on ' +
    "other files, such as tests of finished files). `collect` names a slot each file's machine keeps: the values are " +
    'joined in queue order into that slot of this role (lists are concatenated; an item with a `path` replaces an ' +
    'earlier one with the same path). On a gentle stop (the first Ctrl-C), the files under way are finished and no ' +
    'other is started; resumed, the step carries on.',
  params: z
    .object({
      sop: z.string().regex(/^[\w.-]+\.ya?ml$/, 'name a YAML file next to this SOP, e.g. engineer-file.yaml'),
      order: z.enum(['dependencies', 'none']).default('dependencies'),
      collect: z.string().min(1).nullable().default(null),
    })
    .strict(),
  output: EachFileOutput,
  effect: 'per-file',
  names: { subSop: 'sop' },
  async run({ params, context, signal }, ports) {
    const sop = ports.machines.subSops[params.sop];
    if (!sop) {
      throw new SopworksError('SOP_INVALID', `${ports.role.profile.id}: the per-file SOP ${params.sop} was not loaded; \`sopworks sop validate\` says why.`);
    }
    // A change run's task graph has the same shape (src/documents/change-schemas.ts).
    const graph = (ports.board.latest<TaskGraph>('TaskGraph') ?? ports.board.latest<TaskGraph>('ChangeTaskGraph'))?.payload;
    const asks: Record<string, number> = {};
    const kept = new Map<string, unknown>();
    const result = await runOverDag({
      files: context.queue,
      dependsOn: (file) => (params.order === 'none' ? [] : (graph?.tasks.find((t) => t.file === file)?.dependsOn ?? [])),
      concurrency: ports.run.concurrency,
      signal,
      windDown: ports.run.windDown,
      job: async (file, handle) => {
        const seats = fileSeats(ports.role.seats, file, graph);
        const filePorts: Ports = { ...ports, role: { ...ports.role, fileSeats: seats }, publish: filePublish(ports.publish, file, handle, context, seats) };
        const machine = ports.machines.build(sop, filePorts, { current: file, trigger: context.trigger, asks: context.asks, written: handle.dependencies });
        const final = await runToCompletion(machine, handle.signal, file);
        // Keys are per file, so the counts of different files never overlap.
        for (const [id, count] of Object.entries(final.asks)) if (count !== context.asks[id]) asks[id] = count;
        if (params.collect && params.collect in final.slots) kept.set(file, final.slots[params.collect]);
      },
    });
    const collected = params.collect
      ? { slot: params.collect, value: joinCollected(context.queue.filter((f) => kept.has(f)).map((f) => kept.get(f))) }
      : undefined;
    return { done: result.written, published: result.published, asks, ...(collected ? { collected } : {}) };
  },
});

/**
 * How a file's machine posts: its messages wait for the file's turn (queue order), and a file is
 * written — what depends on it may start — once its Code (or a change run's Removal) is drafted.
 */
function filePublish(publish: Publish, file: string, handle: JobHandle, context: RoleContext, seats: ReturnType<typeof fileSeats>): Publish {
  return async (draft) => {
    const code = draft.type === 'Code' ? CodeFile.safeParse(draft.payload) : null;
    if (code?.success && code.data.path === file) handle.written(code.data.content);
    // A change run's deleted or renamed file is done too: what depends on it goes on.
    const removal = draft.type === 'Removal' ? Removal.safeParse(draft.payload) : null;
    if (removal?.success) handle.written(removal.data.content ?? '');
    const nth = context.published + (await handle.turn());
    // Who wrote and who reviewed it go with the file: the commit is its writer's. A file no model reviewed
    // (`selfReview: false`) names no reviewer.
    const signed = draft.type === 'Code' ? { ...draft, payload: signedCode(draft.payload as { review?: unknown }, seats) } : draft;
    // The next file may post as soon as this message is on the board; the commits keep board order.
    return publish(signed, nth, () => handle.posted());
  };
}

/**
 * A file's writer and reviewer: the files are dealt out among the role's people in task-graph order (the
 * same file goes to the same person when it is written and when it is fixed), and each is reviewed by
 * the next person; a role held by one is reviewed by its second person, who writes no files
 * (role.yaml's `reviewer`) — never by the writer. The reviewer comes as their review prompts present them:
 * judging the writer's work, with a reviewer's goal. Files the task graph does not name (a test file in a
 * bug report, say) are placed by their path.
 */
export function fileSeats(seats: readonly RoleProfile[], file: string, graph: TaskGraph | undefined): { writer: RoleProfile; reviewer: RoleProfile } {
  const inGraph = graph?.tasks.findIndex((t) => t.file === file) ?? -1;
  const index = inGraph >= 0 ? inGraph : [...file].reduce((sum, ch) => (sum * 31 + ch.charCodeAt(0)) % 1_000_003, 0);
  const writer = seats[index % seats.length]!;
  const reviewer = seats.length > 1 ? seats[(index + 1) % seats.length]! : reviewerOf(writer);
  return { writer, reviewer: asReviewerOf(reviewer, writer) };
}

/** The values each file's machine kept, in queue order: lists joined, a later item with a path replacing an earlier one. */
function joinCollected(values: unknown[]): unknown[] {
  const items = values.flatMap((value) => (Array.isArray(value) ? value : [value]));
  const lastByPath = new Map<string, number>();
  items.forEach((item, index) => {
    const itemPath = (item as { path?: unknown } | null)?.path;
    if (typeof itemPath === 'string') lastByPath.set(itemPath, index);
  });
  return items.filter((item, index) => {
    const itemPath = (item as { path?: unknown } | null)?.path;
    return typeof itemPath !== 'string' || lastByPath.get(itemPath) === index;
  });
}

function signedCode(payload: { review?: unknown }, seats: ReturnType<typeof fileSeats>): object {
  return { ...payload, author: person(seats.writer), reviewer: payload.review == null ? null : person(seats.reviewer) };
}

const person = (profile: RoleProfile): { name: string; email: string } => ({ name: profile.title, email: profile.email });

/**
 * Runs a file's machine until it reaches a final state; rejects when the signal aborts, or with its
 * error, named after the file and the step it stopped in (the role's own state says only "eachFile").
 */
function runToCompletion(machine: AnyStateMachine, signal: AbortSignal, file: string): Promise<RoleContext> {
  return new Promise<RoleContext>((resolve, reject) => {
    const actor = createActor(machine);
    const onAbort = () => {
      actor.stop();
      reject(signal.reason);
    };
    if (signal.aborted) return reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    actor.subscribe({
      complete: () => {
        signal.removeEventListener('abort', onAbort);
        resolve(actor.getSnapshot().context as RoleContext);
      },
      error: (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(inFileStep(error, file, stateName(actor.getSnapshot().value)));
      },
    });
    actor.start();
  });
}

/** The same error (its code and hint kept: a budget or an interruption is still recognised) saying where. */
function inFileStep(error: unknown, file: string, step: string): unknown {
  const where = `${file}, step "${step}": `;
  if (SopworksError.isInstance(error)) return new SopworksError(error.code, where + error.message, { hint: error.hint, cause: error });
  if (error instanceof Error) return new Error(where + error.message, { cause: error });
  return error;
}
