/**
 * A file committed with its last review's issues open (its revisions ran out) reaches QA with them: the
 * `files` view carries `openIssues`, and QA's prompt shows them under the file; an approved file shows none.
 */
import assert from 'node:assert/strict';
import { files } from '../../../../src/capabilities/artifacts/views.ts';
import { PromptRenderer } from '../../../../src/capabilities/model/index.ts';
import { markdownRenderers } from '../../../../src/company/index.ts';
import type { Design, PRD } from '../../../../src/documents/index.ts';
import type { BoardReader, Message } from '../../../../src/engine/board/index.ts';
import { loadRoleProfile } from '../../../../src/engine/roles/index.ts';
import { initialContext } from '../../../../src/engine/steps/index.ts';
import { ROLES } from '../../../helpers/paths.ts';

const ISSUE = 'parse() returns 0 for an empty line instead of raising ValueError (AC-3).';

const codes = [
  { path: 'src/parse.py', content: 'def parse(line):\n    return 0\n', review: { approved: false, issues: [ISSUE] } },
  { path: 'src/cli.py', content: 'print(1)\n', review: { approved: true, issues: [] } },
];

function board(): BoardReader {
  const message = (payload: unknown, n: number) =>
    ({ id: `msg-${n}`, seq: n, type: 'Code', from: 'x', to: 'all', causedBy: [], createdAt: '', payload }) as Message;
  return { latest: () => undefined, all: (type) => (type === 'Code' ? (codes.map(message) as never) : []) };
}

const prd: PRD = {
  projectName: 'sums',
  summary: 'Sums numbers.',
  goals: ['Sum'],
  userStories: [{ asA: 'user', iWant: 'a sum', soThat: 'I know it' }],
  requirementPool: [{ id: 'R1', description: 'Sum lines', priority: 'P0' }],
  acceptanceCriteria: ['Prints the sum', 'Exits 0', 'An empty line exits 2'],
  openQuestions: [],
};
const design: Design = {
  summary: 'A CLI.',
  approach: 'Parse, then sum.',
  language: 'Python 3.11',
  testCommand: ['python', '-m', 'pytest', '-v'],
  runCommand: ['python', 'src/cli.py'],
  files: [
    { path: 'src/parse.py', purpose: 'parse(line) -> int' },
    { path: 'src/cli.py', purpose: 'the command line' },
  ],
  classDiagram: 'classDiagram\n  class Parser',
  sequenceDiagram: 'sequenceDiagram\n  User->>CLI: run',
};

describe("a file's open review issues", () => {
  it('are in the files view: the last review of a file that did not approve, none for an approved one', async () => {
    const shown = (await files.read({ context: initialContext(), board: board() }, 'files')) as { path: string; openIssues: string[] }[];
    assert.deepEqual(
      shown.map((f) => [f.path, f.openIssues]),
      [
        ['src/cli.py', []],
        ['src/parse.py', [ISSUE]],
      ],
    );
  });

  it('are shown to QA under the file they concern, and nothing is said of an approved file', async () => {
    const profile = await loadRoleProfile(ROLES, 'qa');
    const shown = await files.read({ context: initialContext(), board: board() }, 'files');
    const prompt = new PromptRenderer(ROLES, markdownRenderers).render(
      profile,
      'write_tests',
      { prd, design, files: shown, key: null },
      { kind: 'files' },
    ).user;
    const parse = prompt.slice(prompt.indexOf('### src/parse.py'));
    assert.match(parse, /Its last review left these open \(its revisions ran out before they were resolved\):\n- parse\(\) returns 0/);
    const cli = prompt.slice(prompt.indexOf('### src/cli.py'), prompt.indexOf('### src/parse.py'));
    assert.doesNotMatch(cli, /left these open/);
  });
});
