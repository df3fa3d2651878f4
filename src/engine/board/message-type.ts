/**
 * What a message type is to the board: the schema its payload is validated against, a description for
 * the reference, and — for an artifact — the files it becomes in the repository and the subject of the
 * commit that adds them. The types themselves come with the vocabulary (src/company/vocabulary.ts).
 */
import type { z } from 'zod';
import type { Message } from './message.ts';

/** Read access to what is already on the board, for renderers and views that combine artifacts. */
export interface BoardReader {
  latest<T = unknown>(type: string): Message<T> | undefined;
  all<T = unknown>(type: string): Message<T>[];
}

export interface ProjectFile {
  path: string;
  content: string;
  /** Committed with mode 100755 (a file the design declares executable). */
  executable?: boolean;
}

export interface MessageType<T> {
  schema: z.ZodType<T>;
  /** What the message is for, in the vocabulary reference (`sopworks sop vocabulary`). */
  description: string;
  /** What the message adds to the repository; absent for coordination messages. */
  files?: (payload: T, board: BoardReader) => ProjectFile[];
  /**
   * The paths `files` writes, without rendering their content: what the write policy is checked on
   * when the message is published, on the run's critical path (rendering a design as markdown costs
   * milliseconds there; the commit renders it later, off that path). Present exactly when `files` is.
   */
  paths?: (payload: T, board: BoardReader) => string[];
  subject?: (payload: T, board: BoardReader) => string;
  /**
   * Whether its files are committed (absent: always): a run's own documents, in a run whose Requirement
   * keeps them in the run folder, are rendered there instead (`.sopworks/documents/`) and shown as ever.
   */
  committed?: (payload: T, board: BoardReader) => boolean;
  /** The paths the message removes from the repository (a change run's deleted or renamed files). */
  removes?: (payload: T, board: BoardReader) => string[];
  /** Who authors the commit, when not the role that posted it (one of several Engineers). */
  author?: (payload: T) => { name: string; email: string } | null;
}

/** The board's types by name. */
export type MessageTypes = Readonly<Record<string, MessageType<unknown>>>;

export const defineMessage = <T>(type: MessageType<T>): MessageType<unknown> => type as MessageType<unknown>;

/**
 * The `files` and `paths` of an artifact that is one rendered document: at `pathOf`, with `render`'s
 * content (rendered only when committed; `paths` does not render).
 */
export const oneDocument = <T>(pathOf: (payload: T, board: BoardReader) => string, render: (payload: T) => string) => ({
  files: (payload: T, board: BoardReader): ProjectFile[] => [{ path: pathOf(payload, board), content: render(payload) }],
  paths: (payload: T, board: BoardReader): string[] => [pathOf(payload, board)],
});
