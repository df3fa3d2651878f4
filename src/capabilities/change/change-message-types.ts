/**
 * The message types of a change run, registered beside the others (src/company/message-types.ts): each
 * document is committed under the change's folder, authored by the role that wrote it.
 */
import type { z } from 'zod';
import * as C from './change-schemas.ts';
import { renderRepositoryMap, renderBaselineTests, renderChangeRequest, renderChangeTasks, renderDesignDelta } from './change-documents.ts';
import { documentsDir } from './documents-dir.ts';

interface Reader {
  latest<T = unknown>(type: string): { payload: T } | undefined;
}

/** The shape of src/company/message-types.ts's MessageType, without importing it (the registry imports this). */
interface ChangeMessageType<T> {
  schema: z.ZodType<T>;
  files?: (payload: T, board: Reader) => { path: string; content: string }[];
  paths?: (payload: T, board: Reader) => string[];
  subject?: (payload: T, board: Reader) => string;
  removes?: (payload: T, board: Reader) => string[];
}

const define = <T>(type: ChangeMessageType<T>): ChangeMessageType<unknown> => type as ChangeMessageType<unknown>;

/** A document of the change, at `<changeDir>/<name>`. */
const at = (board: Reader, name: string) => `${documentsDir(board)}/${name}`;

export const changeMessageTypes = {
  // What the company was shown of the repository: committed, so a reviewer sees what the model saw.
  RepositoryMap: define({
    schema: C.RepositoryMap,
    files: (map) => [{ path: `${map.changeDir}/repository-map.md`, content: renderRepositoryMap(map) }],
    paths: (map) => [`${map.changeDir}/repository-map.md`],
    subject: (map) => `docs: map of the repository at ${map.base.slice(0, 12)} (${map.fileCount} files)`,
  }),
  ChangeRequest: define({
    schema: C.ChangeRequest,
    files: (request, board) => [{ path: at(board, 'change-request.md'), content: renderChangeRequest(request) }],
    paths: (_request, board) => [at(board, 'change-request.md')],
    subject: (request) => `docs: change request: ${request.title}`,
  }),
  DesignDelta: define({
    schema: C.DesignDelta,
    files: (delta, board) => [{ path: at(board, 'design.md'), content: renderDesignDelta(delta) }],
    paths: (_delta, board) => [at(board, 'design.md')],
    subject: () => 'docs: design delta of the change',
  }),
  ChangeTaskGraph: define({
    schema: C.ChangeTaskGraph,
    files: (graph, board) => [{ path: at(board, 'tasks.md'), content: renderChangeTasks(graph) }],
    paths: (_graph, board) => [at(board, 'tasks.md')],
    subject: (graph) => `docs: change tasks (${graph.tasks.length})`,
  }),
  // A deleted file, or a renamed one (removed at its old path, added at its new one), in one commit.
  Removal: define({
    schema: C.Removal,
    files: (removal) => (removal.renamedTo !== null ? [{ path: removal.renamedTo, content: removal.content ?? '' }] : []),
    paths: (removal) => [removal.path, ...(removal.renamedTo !== null ? [removal.renamedTo] : [])],
    removes: (removal) => [removal.path],
    subject: (removal) => (removal.renamedTo !== null ? `refactor: move ${removal.path} to ${removal.renamedTo}` : `refactor: remove ${removal.path}`),
  }),
  BaselineTests: define({
    schema: C.BaselineTests,
    files: (report, board) => [{ path: at(board, 'baseline-tests.md'), content: renderBaselineTests(report) }],
    paths: (_report, board) => [at(board, 'baseline-tests.md')],
    subject: (report) =>
      !report.runner.started
        ? 'test: the tests could not run on the base'
        : report.ran
          ? `test: the tests on the base ${report.passed ? 'pass' : 'fail'}${report.counts ? ` (${report.counts.passed} passed, ${report.counts.failed} failed)` : ''}`
          : 'test: the base has no tests',
  }),
};
