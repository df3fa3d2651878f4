/**
 * The shared message board: typed messages in one total order, durable before anyone sees them.
 * It is the run's source of truth — files, commits and prompts are all derived from it.
 */
import { SopworksError } from '../../ground/errors.ts';
import { AppendLog, type RecordLog, repairAppendLog } from '../../ground/files/index.ts';
import { type Draft, Envelope, type Message, messageId } from './message.ts';
import type { BoardReader, MessageTypes } from './message-type.ts';

export type Subscriber = (message: Message) => void;

export interface BoardOptions {
  /** The message types the board accepts; a payload is validated against its type's schema. */
  types: MessageTypes;
  now?: () => Date;
}

export class MessageBoard implements BoardReader {
  private readonly messages: Message[] = [];
  private readonly subscribers = new Set<Subscriber>();
  private pending: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly log: RecordLog | null,
    readonly types: MessageTypes,
    private readonly now: () => Date,
  ) {}

  /** Opens (or creates) the board stored at `file`, replaying what is already there; `types`: the message types it accepts. */
  static async open(file: string, options: BoardOptions): Promise<{ board: MessageBoard; droppedTail: string | null }> {
    const loaded = await repairAppendLog(file);
    const log = await AppendLog.open(file, { flush: 'each', crashPointName: 'board.append' });
    return { board: MessageBoard.restore(loaded.records, log, file, options), droppedTail: loaded.droppedTail };
  }

  /** The board whose messages are `records` (checked one by one: `where` names the log in an error), appending to `log`. */
  static restore(records: readonly unknown[], log: RecordLog, where: string, options: BoardOptions): MessageBoard {
    const messages = records.map((record, index) => parseStored(record, `${where}:${index + 1}`, index + 1));
    const board = new MessageBoard(log, options.types, options.now ?? (() => new Date()));
    board.messages.push(...messages);
    return board;
  }

  /** A board kept in memory only (for tests and pure tooling). */
  static inMemory(options: BoardOptions): MessageBoard {
    return new MessageBoard(null, options.types, options.now ?? (() => new Date()));
  }

  /** Validates the payload against its type, writes the message durably, then tells subscribers. */
  post<P>(draft: Draft<P>): Promise<Message<P>> {
    const result = this.pending.then(() => this.append(draft));
    this.pending = result.catch(() => undefined);
    return result as Promise<Message<P>>;
  }

  private async append(draft: Draft): Promise<Message> {
    const type = this.types[draft.type];
    if (!type) {
      throw new SopworksError('SOP_INVALID', `Unknown message type "${draft.type}" published by ${draft.from}.`, {
        hint: `Known types: ${Object.keys(this.types).join(', ')}.`,
      });
    }
    const parsed = type.schema.safeParse(draft.payload);
    if (!parsed.success) {
      throw new SopworksError(
        'REPLY_INVALID',
        `${draft.from} tried to publish an invalid ${draft.type}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
      );
    }
    const seq = this.messages.length + 1;
    const message: Message = {
      id: messageId(seq),
      seq,
      type: draft.type,
      from: draft.from,
      to: draft.to ?? 'all',
      causedBy: draft.causedBy ?? [],
      payload: parsed.data,
      createdAt: this.now().toISOString(),
    };
    await this.log?.append(message);
    this.messages.push(message);
    for (const subscriber of this.subscribers) subscriber(message);
    return message;
  }

  subscribe(subscriber: Subscriber): () => void {
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  list(): readonly Message[] {
    return this.messages;
  }

  latest<T = unknown>(type: string): Message<T> | undefined {
    for (let i = this.messages.length - 1; i >= 0; i--) {
      if (this.messages[i]!.type === type) return this.messages[i] as Message<T>;
    }
    return undefined;
  }

  all<T = unknown>(type: string): Message<T>[] {
    return this.messages.filter((m) => m.type === type) as Message<T>[];
  }

  /** The board as it was just before message `seq` was posted. */
  before(seq: number): BoardReader {
    const earlier = this.messages.slice(0, seq - 1);
    return {
      latest: <T>(type: string) => earlier.findLast((m) => m.type === type) as Message<T> | undefined,
      all: <T>(type: string) => earlier.filter((m) => m.type === type) as Message<T>[],
    };
  }

  async close(): Promise<void> {
    await this.pending;
    await this.log?.close();
  }
}

/**
 * A stored line must be the board's next message: a line that is not one, or is out of order, was not
 * written by sopworks (edited by hand, or forged by code that reached the record) — the run is refused
 * with the line named, never replayed.
 */
function parseStored(record: unknown, where: string, seq: number): Message {
  const parsed = Envelope.safeParse(record);
  const problem = !parsed.success
    ? `not a board message (${parsed.error.issues[0]?.message})`
    : parsed.data.seq !== seq || parsed.data.id !== messageId(seq)
      ? `message ${parsed.data.id} (seq ${parsed.data.seq}) where message ${messageId(seq)} belongs`
      : null;
  if (problem) {
    throw new SopworksError('NOT_RESUMABLE', `${where}: ${problem}; the board was changed outside sopworks.`, {
      hint: "The board is the run's source of truth and sopworks only appends to it: restore it from a copy, or start a new run.",
    });
  }
  return parsed.data as Message;
}
