/**
 * The message types of a change run, registered beside the others (src/company/vocabulary.ts): each
 * document is rendered under the change's folder — kept in the run folder, or (--commit-documents)
 * committed, authored by the role that wrote it.
 */
import * as C from '../../documents/index.ts';
import { documentsCommitted, documentsDir } from '../../documents/index.ts';
import { type BoardReader, defineMessage as define, oneDocument } from '../../engine/board/index.ts';
import { renderBaselineTests, renderChangeRequest, renderChangeTasks, renderDesignDelta, renderRepositoryMap } from './change-documents.ts';

/** Committed only when the run says so (--commit-documents): by default a change's branch holds the change alone. */
const committed = (_payload: unknown, board: BoardReader): boolean => documentsCommitted(board);

/** A document of the change, at `<changeDir>/<name>`. */
const at =
  (name: string) =>
  (_payload: unknown, board: BoardReader): string =>
    `${documentsDir(board)}/${name}`;

export const changeMessageTypes = {
  // What the company was shown of the repository: committed, so a reviewer sees what the model saw.
  RepositoryMap: define({
    committed,
    schema: C.RepositoryMap,
    description:
      "A change run's bounded map of the repository at the base (tree, manifests, README, interfaces); rendered as docs/changes/<n>-<slug>/repository-map.md: kept in the run folder (.sopworks/documents/), committed with --commit-documents.",
    ...oneDocument((map) => `${map.changeDir}/repository-map.md`, renderRepositoryMap),
    subject: (map) => `docs: map of the repository at ${map.base.slice(0, 12)} (${map.fileCount} files)`,
  }),
  ChangeRequest: define({
    committed,
    schema: C.ChangeRequest,
    description:
      'What a change does: `changes`, `acceptanceCriteria`, `mustKeepWorking`, `outOfScope`; rendered as docs/changes/<n>-<slug>/change-request.md (the run folder, or committed with --commit-documents).',
    ...oneDocument(at('change-request.md'), renderChangeRequest),
    subject: (request) => `docs: change request: ${request.title}`,
  }),
  DesignDelta: define({
    committed,
    schema: C.DesignDelta,
    description:
      'A Design of what the repository becomes (its `testCommand` runs old and new tests, after its `buildCommand` when the tests import what a build writes) plus what stays `unchanged`; rendered as docs/changes/<n>-<slug>/design.md (the run folder, or committed with --commit-documents).',
    ...oneDocument(at('design.md'), renderDesignDelta),
    subject: () => 'docs: design delta of the change',
  }),
  ChangeTaskGraph: define({
    committed,
    schema: C.ChangeTaskGraph,
    description:
      'One task per file to `modify`, `add`, `delete` or `rename` (`from`: its old path), with dependencies; rendered as docs/changes/<n>-<slug>/tasks.md (the run folder, or committed with --commit-documents).',
    ...oneDocument(at('tasks.md'), renderChangeTasks),
    subject: (graph) => `docs: change tasks (${graph.tasks.length})`,
  }),
  // A deleted file, or a renamed one (removed at its old path, added at its new one), in one commit.
  Removal: define({
    schema: C.Removal,
    description: 'A deleted file (`path`), or a renamed one (`path` → `renamedTo`, with its `content`), committed in one commit that removes the old path.',
    files: (removal) => (removal.renamedTo !== null ? [{ path: removal.renamedTo, content: removal.content ?? '' }] : []),
    paths: (removal) => [removal.path, ...(removal.renamedTo !== null ? [removal.renamedTo] : [])],
    removes: (removal) => [removal.path],
    subject: (removal) => (removal.renamedTo !== null ? `refactor: move ${removal.path} to ${removal.renamedTo}` : `refactor: remove ${removal.path}`),
  }),
  BaselineTests: define({
    committed,
    schema: C.BaselineTests,
    description:
      'The existing tests as they ran on the base before the change (`ran`: false when there are none); rendered as docs/changes/<n>-<slug>/baseline-tests.md (the run folder, or committed with --commit-documents).',
    ...oneDocument(at('baseline-tests.md'), renderBaselineTests),
    subject: (report) =>
      !report.runner.started
        ? 'test: the tests could not run on the base'
        : report.ran
          ? `test: the tests on the base ${report.passed ? 'pass' : 'fail'}${report.counts ? ` (${report.counts.passed} passed, ${report.counts.failed} failed)` : ''}`
          : 'test: the base has no tests',
  }),
};
