/**
 * A context sequence per role, memory permitting: a sequence keeps what it last evaluated, so a role's
 * next call reads again only what its prompt does not share with the role's call before — its system
 * prompt and documents stay evaluated while another role asks in between (docs/performance.md, "Prompt
 * caches"). Each sequence costs a context's memory; when they do not fit, one sequence serves every role,
 * and the engine says so.
 */
import type { LlamaChat, LlamaContext, LlamaModel } from 'node-llama-cpp';
import type { Engine } from './load-engine.ts';
import { formatBytes } from './machine-fit.ts';

/** How many sequences to open for `roles` roles, and why not one each when they do not fit. */
export interface SequencePlan {
  count: number;
  /** Said when the run gets fewer sequences than roles; null otherwise. */
  notice: string | null;
}

/**
 * One sequence per role when `roles` of them fit (`needed(n)`: the memory n sequences take with the
 * model, `free`: the memory there is), else one for all — a plan that says so.
 */
export function planSequences(roles: number, needed: (sequences: number) => number, free: number): SequencePlan {
  if (roles <= 1) return { count: 1, notice: null };
  const all = needed(roles);
  if (all <= free) return { count: roles, notice: null };
  return {
    count: 1,
    notice:
      `one context sequence for all ${roles} roles: one each would need about ${formatBytes(all)} of RAM and ${formatBytes(free)} is free, ` +
      "so a role's next call reads its prompt again where another role asked in between (lower SOPWORKS_LOCAL_CONTEXT to give each role its own)",
  };
}

/** A context of `count` sequences, or of one when the GPU cannot hold them; the notice says which. */
export async function createRoleContext(
  model: LlamaModel,
  options: { contextSize: number | { min: number; max: number }; threads: number },
  plan: SequencePlan,
): Promise<{ context: LlamaContext; notice: string | null }> {
  try {
    return { context: await model.createContext({ ...options, sequences: plan.count }), notice: plan.notice };
  } catch (error) {
    if (plan.count === 1) throw error;
    const context = await model.createContext({ ...options, sequences: 1 });
    return { context, notice: `one context sequence for all ${plan.count} roles: a context of ${plan.count} sequences did not fit (${firstLine(error)})` };
  }
}

/** The chats of a context's sequences, each role given its own in the order roles first ask, while any is left. */
export class RoleChats {
  private readonly chats: LlamaChat[];
  private readonly byRole = new Map<string, LlamaChat>();

  constructor(engine: Engine, context: LlamaContext) {
    const count = context.totalSequences;
    this.chats = Array.from({ length: count }, () => new engine.LlamaChat({ contextSequence: context.getSequence(), autoDisposeSequence: false }));
  }

  get count(): number {
    return this.chats.length;
  }

  /** Any chat: they share the model's chat template. */
  get first(): LlamaChat {
    return this.chats[0]!;
  }

  /** The role's chat: its own sequence, or — more roles than sequences — one shared in turn. */
  of(role: string): LlamaChat {
    let chat = this.byRole.get(role);
    if (!chat) {
      chat = this.chats[this.byRole.size % this.chats.length]!;
      this.byRole.set(role, chat);
    }
    return chat;
  }
}

const firstLine = (error: unknown): string => ((error as Error)?.message ?? String(error)).split('\n')[0]!;
