/**
 * Every message type the board accepts: its payload schema and, for artifacts, the files it
 * becomes in the generated repository and the subject of the commit that adds them.
 */
import type { z } from 'zod';
import * as S from './schemas.ts';
import { renderPrd } from './render/prd.ts';
import { renderDesign } from './render/design.ts';
import { renderTasks } from './render/tasks.ts';
import { renderReadme } from './render/readme.ts';
import { renderBugReport, renderTestReport } from './render/test-report.ts';
import type { Message } from '../board/message.ts';

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
  subject?: (payload: T, board: BoardReader) => string;
  /** Who authors the commit, when not the role that posted it (one of several Engineers). */
  author?: (payload: T) => { name: string; email: string } | null;
}

const define = <T>(type: MessageType<T>): MessageType<unknown> => type as MessageType<unknown>;

function latestPayload<T>(board: BoardReader, type: string, needed: string): T {
  const message = board.latest<T>(type);
  if (!message) throw new Error(`a ${type} must be published before ${needed}`);
  return message.payload;
}

export const messageTypes: Record<string, MessageType<unknown>> = {
  Requirement: define({ schema: S.Requirement }),
  PRD: define({
    schema: S.PRD,
    files: (prd) => [{ path: 'docs/prd.md', content: renderPrd(prd) }],
    subject: (prd) => `docs: product requirements for ${prd.projectName}`,
  }),
  Design: define({
    schema: S.Design,
    files: (design, board) => {
      const prd = latestPayload<S.PRD>(board, 'PRD', 'the Design');
      return [
        { path: 'docs/design.md', content: renderDesign(design, prd.projectName) },
        { path: 'README.md', content: renderReadme(prd, design) },
      ];
    },
    subject: () => 'docs: system design and README',
  }),
  TaskGraph: define({
    schema: S.TaskGraph,
    files: (graph) => [{ path: 'docs/tasks.md', content: renderTasks(graph) }],
    subject: (graph) => `docs: task graph of ${graph.tasks.length} files`,
  }),
  Code: define({
    schema: S.Code,
    files: (code) => [{ path: code.path, content: code.content }],
    subject: (code, board) => {
      const earlier = board.all<S.Code>('Code').some((m) => m.payload.path === code.path);
      return earlier ? `fix: ${code.path}` : `feat: add ${code.path}`;
    },
    author: (code) => code.author,
  }),
  CodeComplete: define({ schema: S.CodeComplete }),
  Tests: define({
    schema: S.TestFiles,
    files: (tests) => tests.files,
    subject: (tests) => `test: add ${tests.files.map((f) => f.path).join(', ')}`,
  }),
  TestReport: define({
    schema: S.TestReport,
    files: (report) => [{ path: `docs/test-reports/round-${report.round}.md`, content: renderTestReport(report) }],
    subject: (report) =>
      `test: round ${report.round} ${report.passed ? 'passed' : 'failed'}` +
      (report.counts ? ` (${report.counts.passed} passed, ${report.counts.failed} failed)` : ''),
  }),
  BugReport: define({
    schema: S.BugReport,
    files: (bug, board) => {
      const number = board.all('BugReport').length + 1;
      return [{ path: `docs/bug-reports/bug-${number}.md`, content: renderBugReport(bug, number) }];
    },
    subject: (bug) => `docs: bug report for ${bug.files.map((f) => f.path).join(', ')}`,
  }),
  Document: define({
    schema: S.Document,
    files: (document) => [{ path: document.path, content: document.content }],
    subject: (document) => `docs: ${document.path}`,
  }),
  Approval: define({ schema: S.Approval }),
  Outcome: define({ schema: S.Outcome }),
};

export const knownMessageTypes = (): string[] => Object.keys(messageTypes);
