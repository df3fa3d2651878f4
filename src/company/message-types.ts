/**
 * Every message type the board accepts: its payload schema and, for artifacts, the files it
 * becomes in the generated repository and the subject of the commit that adds them.
 */
import type { z } from 'zod';
import * as S from '../documents/schemas.ts';
import { renderPrd } from '../capabilities/artifacts/render/prd.ts';
import { renderDesign } from '../capabilities/artifacts/render/design.ts';
import { renderTasks } from '../capabilities/artifacts/render/tasks.ts';
import { renderReadme } from '../capabilities/artifacts/render/readme.ts';
import { renderBugReport, renderTestReport } from '../capabilities/test-round/render-test-report.ts';
import type { Message } from '../engine/board/message.ts';
import { changeMessageTypes } from '../capabilities/change/change-message-types.ts';
import { documentsDir } from '../capabilities/change/documents-dir.ts';

/** Read access to what is already on the board, for renderers that combine artifacts. */
export interface BoardReader {
  latest<T = unknown>(type: string): Message<T> | undefined;
  all<T = unknown>(type: string): Message<T>[];
}

export interface ProjectFile {
  path: string;
  content: string;
}

export interface MessageType<T> {
  schema: z.ZodType<T>;
  /** What the message adds to the repository; absent for coordination messages. */
  files?: (payload: T, board: BoardReader) => ProjectFile[];
  /**
   * The paths `files` writes, without rendering their content: what the write policy is checked on
   * when the message is published, on the run's critical path (rendering a design as markdown costs
   * milliseconds there; the commit renders it later, off that path). Present exactly when `files` is.
   */
  paths?: (payload: T, board: BoardReader) => string[];
  subject?: (payload: T, board: BoardReader) => string;
  /** The paths the message removes from the repository (a change run's deleted or renamed files). */
  removes?: (payload: T, board: BoardReader) => string[];
  /** Who authors the commit, when not the role that posted it (one of several Engineers). */
  author?: (payload: T) => { name: string; email: string } | null;
}

const define = <T>(type: MessageType<T>): MessageType<unknown> => type as MessageType<unknown>;

function latestPayload<T>(board: BoardReader, type: string, needed: string): T {
  const message = board.latest<T>(type);
  if (!message) throw new Error(`a ${type} must be published before ${needed}`);
  return message.payload;
}

const PRD_PATH = 'docs/prd.md';
const DESIGN_PATH = 'docs/design.md';
const README_PATH = 'README.md';
const TASKS_PATH = 'docs/tasks.md';

export const messageTypes: Record<string, MessageType<unknown>> = {
  Requirement: define({ schema: S.Requirement }),
  PRD: define({
    schema: S.PRD,
    files: (prd) => [{ path: PRD_PATH, content: renderPrd(prd) }],
    paths: () => [PRD_PATH],
    subject: (prd) => `docs: product requirements for ${prd.projectName}`,
  }),
  Design: define({
    schema: S.Design,
    files: (design, board) => {
      const prd = latestPayload<S.PRD>(board, 'PRD', 'the Design');
      return [
        { path: DESIGN_PATH, content: renderDesign(design, prd.projectName) },
        { path: README_PATH, content: renderReadme(prd, design) },
      ];
    },
    paths: () => [DESIGN_PATH, README_PATH],
    subject: () => 'docs: system design and README',
  }),
  TaskGraph: define({
    schema: S.TaskGraph,
    files: (graph) => [{ path: TASKS_PATH, content: renderTasks(graph) }],
    paths: () => [TASKS_PATH],
    subject: (graph) => `docs: task graph of ${graph.tasks.length} files`,
  }),
  Code: define({
    schema: S.Code,
    files: (code) => [{ path: code.path, content: code.content }],
    paths: (code) => [code.path],
    subject: (code, board) => {
      const earlier = board.all<S.Code>('Code').some((m) => m.payload.path === code.path);
      // In a change run, a file that was there before is changed, not added.
      const op = board.latest<{ tasks: { file: string; op: string }[] }>('ChangeTaskGraph')?.payload.tasks.find((t) => t.file === code.path)?.op;
      return earlier ? `fix: ${code.path}` : op === 'modify' ? `feat: change ${code.path}` : `feat: add ${code.path}`;
    },
    author: (code) => code.author,
  }),
  CodeComplete: define({ schema: S.CodeComplete }),
  Tests: define({
    schema: S.TestFiles,
    files: (tests) => tests.files,
    paths: (tests) => tests.files.map((f) => f.path),
    subject: (tests) => `test: add ${tests.files.map((f) => f.path).join(', ')}`,
  }),
  TestReport: define({
    schema: S.TestReport,
    files: (report, board) => [{ path: testReportPath(report, board), content: renderTestReport(report) }],
    paths: (report, board) => [testReportPath(report, board)],
    subject: (report) =>
      `test: round ${report.round} ${report.passed ? 'passed' : 'failed'}` +
      (report.counts ? ` (${report.counts.passed} passed, ${report.counts.failed} failed)` : ''),
  }),
  /** A dependency install before a test round: commits the lockfile it produced, when it changed. */
  Dependencies: define({
    schema: S.DependencyInstall,
    files: (install) => (install.lockfile ? [install.lockfile] : []),
    paths: (install) => (install.lockfile ? [install.lockfile.path] : []),
    subject: (install) => `build: lock the dependencies (${install.lockfile?.path ?? 'unchanged'})`,
  }),
  BugReport: define({
    schema: S.BugReport,
    files: (bug, board) => {
      const number = bugNumber(board);
      return [{ path: bugReportPath(number, board), content: renderBugReport(bug, number) }];
    },
    paths: (_bug, board) => [bugReportPath(bugNumber(board), board)],
    subject: (bug) => `docs: bug report for ${bug.files.map((f) => f.path).join(', ')}`,
  }),
  Document: define({
    schema: S.Document,
    files: (document) => [{ path: document.path, content: document.content }],
    paths: (document) => [document.path],
    subject: (document) => `docs: ${document.path}`,
  }),
  Approval: define({ schema: S.Approval }),
  Outcome: define({ schema: S.Outcome }),
  // A change run's documents (sopworks change): src/change/change-message-types.ts.
  ...(changeMessageTypes as Record<string, MessageType<unknown>>),
};

/** Under docs/, or under the change's folder in a change run (documents-dir.ts). */
const testReportPath = (report: S.TestReport, board: BoardReader): string => `${documentsDir(board)}/test-reports/round-${report.round}.md`;
/** Bug reports are numbered in board order: the one after those already posted. */
const bugNumber = (board: BoardReader): number => board.all('BugReport').length + 1;
const bugReportPath = (number: number, board: BoardReader): string => `${documentsDir(board)}/bug-reports/bug-${number}.md`;

export const knownMessageTypes = (): string[] => Object.keys(messageTypes);
