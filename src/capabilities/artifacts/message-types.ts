/**
 * The planning and code artifacts as board messages: the PRD, the design, the task graph, each file,
 * the tests and documents — the files each becomes in the repository and its commit's subject.
 */
import * as S from '../../documents/index.ts';
import { type BoardReader, defineMessage, oneDocument } from '../../engine/board/index.ts';
import { changeSubject, changeTestsSubject } from './change-subject.ts';
import { renderDesign } from './render/design.ts';
import { renderPrd } from './render/prd.ts';
import { renderTasks } from './render/tasks.ts';

function latestPayload<T>(board: BoardReader, type: string, needed: string): T {
  const message = board.latest<T>(type);
  if (!message) throw new Error(`a ${type} must be published before ${needed}`);
  return message.payload;
}

const PRD_PATH = 'docs/prd.md';
const DESIGN_PATH = 'docs/design.md';
const TASKS_PATH = 'docs/tasks.md';

export const PRD = defineMessage({
  schema: S.PostedPRD,
  description: 'Product requirements; committed as docs/prd.md.',
  ...oneDocument(() => PRD_PATH, renderPrd),
  subject: (prd) => `docs: product requirements for ${prd.projectName}`,
});

/** The design becomes docs/design.md; README.md is a file of its list, which the Engineer writes like any other. */
export const Design = defineMessage({
  schema: S.Design,
  description: 'System design: language, test and run commands, files, class and sequence diagrams; committed as docs/design.md.',
  files: (design, board) => [{ path: DESIGN_PATH, content: renderDesign(design, latestPayload<S.PRD>(board, 'PRD', 'the Design').projectName) }],
  paths: () => [DESIGN_PATH],
  subject: () => 'docs: system design',
});

export const TaskGraph = defineMessage({
  schema: S.TaskGraph,
  description: 'One task per file, with dependencies; committed as docs/tasks.md.',
  ...oneDocument(() => TASKS_PATH, renderTasks),
  subject: (graph) => `docs: task graph of ${graph.tasks.length} files`,
});

/** Whether the design (a new project's, or a change's delta) declares the file executable. */
function declaredExecutable(board: BoardReader, file: string): boolean {
  const design = board.latest<S.Design>('Design') ?? board.latest<S.Design>('DesignDelta');
  return design?.payload.files.find((f) => f.path === file)?.executable === true;
}

export const Code = defineMessage({
  schema: S.Code,
  description:
    'One source file (`path`, `content`, `review`); committed at its path, with mode 100755 when the design declares it `executable`, else with the mode the file has (an edited bin script stays executable).',
  files: (code, board) => [{ path: code.path, content: code.content, ...(declaredExecutable(board, code.path) ? { executable: true } : {}) }],
  paths: (code) => [code.path],
  subject: (code, board) => {
    const earlier = board.all<S.Code>('Code').some((m) => m.payload.path === code.path);
    const change = changeSubject(code.path, earlier, board);
    if (change) return change;
    return earlier ? `fix: ${code.path}` : `feat: add ${code.path}`;
  },
  author: (code) => code.author,
});

export const CodeComplete = defineMessage({ schema: S.CodeComplete, description: 'A round of files is finished (`files`).' });

export const Tests = defineMessage({
  schema: S.TestFiles,
  description: 'Test files (`files`); committed at their paths.',
  files: (tests) => tests.files,
  paths: (tests) => tests.files.map((f) => f.path),
  subject: (tests, board) => {
    // A change's tests say what they test: the change request's title.
    return changeTestsSubject(board) ?? `test: add ${tests.files.map((f) => f.path).join(', ')}`;
  },
});

export const Document = defineMessage({
  schema: S.Document,
  description: 'A document at a path of the role\'s choosing (`path`, `content`), e.g. a user guide; committed at its path as "docs: <path>".',
  files: (document) => [{ path: document.path, content: document.content }],
  paths: (document) => [document.path],
  subject: (document) => `docs: ${document.path}`,
});
