/**
 * A transcript of the demo: every prompt a scripted run sent, with the reply it got. A local
 * OpenAI-compatible server answering from it lets the real ChatOpenAI client run the whole company and
 * build the same repository as the scripted run.
 */
import type { Completion, CompletionRequest, Provider } from '../../src/capabilities/model/index.ts';

export type Sent = { role: string; content: string }[];
/** A conversation as the server sees it, as a lookup key. */
export const keyOf = (messages: Sent) => JSON.stringify(messages.map((m) => [m.role, m.content]));

const commonPrefix = (a: string, b: string) => {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
};
const commonSuffix = (a: string, b: string) => {
  let i = 0;
  while (i < a.length && i < b.length && a[a.length - 1 - i] === b[b.length - 1 - i]) i++;
  return i;
};
/** How much of two conversations agrees: their beginnings and their ends (a prompt's own file is often last). */
const agreement = (a: string, b: string) => commonPrefix(a, b) + commonSuffix(a, b);

/**
 * The recorded reply for a conversation: the exact one, else — for prompts that carry test output, whose
 * timings differ from run to run, or a stated limit that differs with the provider — the recorded
 * conversation of the same shape that agrees with it the most, at its beginning and at its end.
 */
export function lookup(transcript: Map<string, string>, messages: Sent): { key: string; reply: string } | null {
  const key = keyOf(messages);
  const exact = transcript.get(key);
  if (exact !== undefined) return { key, reply: exact };
  const sameShape = [...transcript.keys()].filter((k) => {
    const recorded = JSON.parse(k) as [string, string][];
    return recorded.length === messages.length && recorded[0]![1] === messages[0]!.content;
  });
  const nearest = sameShape.sort((a, b) => agreement(b, key) - agreement(a, key))[0];
  return nearest === undefined ? null : { key: nearest, reply: transcript.get(nearest)! };
}

/** Wraps a provider and keeps, for every prompt, the reply it gave. */
export class TranscriptRecorder implements Provider {
  constructor(
    private readonly inner: Provider,
    readonly replies = new Map<string, string>(),
  ) {}
  get label() {
    return this.inner.label;
  }
  async complete(request: CompletionRequest): Promise<Completion> {
    const completion = await this.inner.complete(request);
    this.replies.set(keyOf(request.messages), completion.text);
    return completion;
  }
}
