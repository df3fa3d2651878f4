/**
 * Derives the repository from the board: each artifact message becomes one commit, in board order,
 * authored by the role that posted it, with a trailer naming the message — but for a run's own
 * documents its type keeps in the run folder (`committed`), which become no commit.
 */
import type { Message, MessageBoard } from '../../engine/board/index.ts';
import { commitSubject } from '../../ground/text/index.ts';
import type { Author, Workspace } from './workspace.ts';

export const MESSAGE_TRAILER = 'Sopworks-Message';

/** Whether a message's files become a commit: its type may keep them in the run folder (message-type.ts). */
export function committed(board: Pick<MessageBoard, 'types' | 'before'>, message: Message): boolean {
  const type = board.types[message.type];
  return type?.committed?.(message.payload, board.before(message.seq)) ?? true;
}

export class Materializer {
  private readonly commits: Promise<unknown>[] = [];
  private readonly unsubscribe: () => void;

  /** Subscribe before anyone else, so commits are queued in the order messages are posted. */
  constructor(
    board: MessageBoard,
    private readonly workspace: Workspace,
    private readonly authorOf: (roleId: string) => Author,
    private readonly onCommit: (message: Message, subject: string) => void = () => {},
    /** A commit that failed: nobody waits on commits to go on working, so the run is told this way. */
    private readonly onFailure: (message: Message, error: unknown) => void = () => {},
  ) {
    this.unsubscribe = board.subscribe((message) => {
      const committed = this.commit(board, message);
      this.commits.push(committed.catch((error: unknown) => this.onFailure(message, error)));
    });
  }

  private async commit(board: MessageBoard, message: Message): Promise<string | null> {
    const type = board.types[message.type];
    if (!type?.files || !committed(board, message)) return null;
    const files = type.files;
    let subject = '';
    // Queued now, so commits keep board order; rendered when their turn comes, off the poster's way.
    // The board only grows, so what was on it before the message is the same then as now.
    const hash = await this.workspace.commit(() => {
      const earlier = board.before(message.seq);
      // Subjects quote model text (a PRD's project name, file paths): one printable line of at most 72 characters.
      subject = commitSubject(type.subject ? type.subject(message.payload, earlier) : `${message.type} from ${message.from}`);
      return {
        files: files(message.payload, earlier),
        removed: type.removes?.(message.payload, earlier),
        author: type.author?.(message.payload) ?? this.authorOf(message.from),
        subject,
        trailers: { [MESSAGE_TRAILER]: message.id },
        role: message.from,
      };
    });
    this.onCommit(message, subject);
    return hash;
  }

  /**
   * Commits, in board order, the artifact messages whose commit a crash prevented — found by the
   * trailer that names each committed message. Returns how many it made.
   */
  async catchUp(board: MessageBoard): Promise<number> {
    const done = await this.workspace.trailerValues(MESSAGE_TRAILER);
    const missing = board.list().filter((message) => board.types[message.type]?.files && committed(board, message) && !done.has(message.id));
    // Queued together, they go into one batch; the first failure is the one reported.
    await Promise.all(missing.map((message) => this.commit(board, message)));
    return missing.length;
  }

  /** Waits for every commit queued so far (a failure is reported through `onFailure`, not here). */
  async settled(): Promise<void> {
    await Promise.all(this.commits);
  }

  stop(): void {
    this.unsubscribe();
  }
}
