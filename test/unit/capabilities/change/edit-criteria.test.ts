/**
 * A change's edit is reviewed against named criteria (issue 36, Must 7), as a new project's file is: its
 * task, its row in the design delta, the change request's acceptance criteria it serves (the change task
 * graph names them by number), what must keep working, its dependencies' interfaces — and a fix, against
 * the bug report too. Each issue names the criterion it breaks; the revision is shown what the ids mean.
 */
import assert from 'node:assert/strict';
import { editCriteria } from '../../../../src/capabilities/change/change-views.ts';
import { PromptRenderer } from '../../../../src/capabilities/model/index.ts';
import { markdownRenderers } from '../../../../src/company/index.ts';
import { type ChangeRequest, ChangeTaskGraph, type DesignDelta } from '../../../../src/documents/index.ts';
import type { BoardReader, Message } from '../../../../src/engine/board/index.ts';
import { initialContext } from '../../../../src/engine/steps/index.ts';
import { ROLES } from '../../../helpers/paths.ts';

const request: ChangeRequest = {
  title: 'Greetings in French',
  summary: 'greet() takes a language.',
  changes: ['greet(name, lang) greets in French for "fr"'],
  acceptanceCriteria: ['greet("Ana", "fr") returns "Bonjour, Ana !"', 'greet("Ana") still returns "Hello, Ana!"', 'README.md documents the lang argument'],
  mustKeepWorking: ['the CLI prints one greeting per name', 'greet is the default export'],
  outOfScope: [],
};
const delta: DesignDelta = {
  summary: 'A language table in greet.js.',
  approach: 'A map from language to template.',
  language: 'JavaScript',
  testCommand: ['node', '--test'],
  runCommand: null,
  files: [{ path: 'src/greet.js', purpose: 'greet(name, lang = "en") looks the template up in GREETINGS' }],
  classDiagram: 'classDiagram\n  class Greet',
  sequenceDiagram: 'sequenceDiagram\n  CLI->>Greet: greet(name)',
  unchanged: ['bin/greet.js'],
};
const graph = ChangeTaskGraph.parse({
  tasks: [
    { file: 'src/greet.js', op: 'modify', from: null, description: 'Add lang with a GREETINGS table.', dependsOn: [], criteria: [1, 2] },
    // A task graph from before tasks named their criteria.
    { file: 'README.md', op: 'modify', from: null, description: 'Document lang.', dependsOn: ['src/greet.js'] },
  ],
});

function board(): BoardReader {
  const payloads: Record<string, unknown> = { ChangeRequest: request, DesignDelta: delta, ChangeTaskGraph: graph };
  const all = (type: string) =>
    type in payloads ? [{ id: 'msg-1', seq: 1, type, from: 'x', to: 'all', causedBy: [], createdAt: '', payload: payloads[type] } as Message] : [];
  return { latest: (type) => all(type).at(-1) as never, all: (type) => all(type) as never };
}
interface EditCriteria {
  named: boolean;
  items: { id: string; text: string }[];
  keep: { id: string; text: string }[];
  file: { path: string; purpose: string } | null;
}
const read = async (current: string) =>
  (await editCriteria.read({ context: { ...initialContext(), current }, board: board() }, 'editCriteria')) as EditCriteria;

const renderer = new PromptRenderer(ROLES, markdownRenderers);
const profile = { id: 'engineer', name: 'Carol', title: 'Engineer', goal: 'Write code.', constraints: [], email: 'e@x' };
const render = (action: string, variables: Record<string, unknown>) =>
  renderer.render(profile as never, action, variables, { kind: action.startsWith('review') ? 'json' : 'edits', path: 'src/greet.js', schema: '{}' }).user;

describe("a change's edit, reviewed against named criteria", () => {
  it('gives the criteria its task names, all that must keep working, and its row in the design delta', async () => {
    assert.deepEqual(await read('src/greet.js'), {
      named: true,
      items: [
        { id: 'AC-1', text: request.acceptanceCriteria[0] },
        { id: 'AC-2', text: request.acceptanceCriteria[1] },
      ],
      keep: [
        { id: 'KW-1', text: request.mustKeepWorking[0] },
        { id: 'KW-2', text: request.mustKeepWorking[1] },
      ],
      file: { path: 'src/greet.js', purpose: delta.files[0]!.purpose },
    });
    // A task that names none (an older graph, or a file a bug report names outside the tasks): all of them, no row.
    const readme = await read('README.md');
    assert.equal(readme.named, false);
    assert.deepEqual(
      readme.items.map((c) => c.id),
      ['AC-1', 'AC-2', 'AC-3'],
    );
    assert.equal(readme.file, null);
    assert.equal((await read('src/other.js')).named, false);
  });

  it('has the review judge the diff by each of them, naming the one an issue breaks', async () => {
    const user = render('review_edit', {
      key: 'src/greet.js',
      changeTask: graph.tasks[0],
      editCriteria: await read('src/greet.js'),
      changeDependencies: [],
      designDelta: delta,
      draft: { diff: '--- a/src/greet.js\n+++ b/src/greet.js\n' },
    });
    assert.match(user, /Review the change below against the criteria given with it — [^\n]* — and nothing else\./);
    assert.match(user, /## The change to review: `src\/greet\.js`\n/);
    assert.match(user, /Review this change to `src\/greet\.js` against these criteria, and reply in the format above\.\n$/);
    assert.match(user, /### 1\. Its task \(modify\)\nAdd lang with a GREETINGS table\./);
    assert.match(user, /### 2\. Its part in the design delta\n`src\/greet\.js`: greet\(name, lang = "en"\) looks the template up in GREETINGS/);
    assert.match(user, /### 3\. The change request's acceptance criteria it serves\n- AC-1: greet\("Ana", "fr"\)[^\n]*\n- AC-2: [^\n]*\n\n### 4\./);
    assert.match(
      user,
      /### 4\. What must keep working: the change may break none of it\n- KW-1: the CLI prints one greeting per name\n- KW-2: greet is the default export/,
    );
    assert.ok(!user.includes('AC-3'), 'a criterion the file does not serve is not its reviewer’s');
    assert.match(
      user,
      /which criterion it breaks \(the task, the design delta, an acceptance criterion or what must keep working by its id, or a dependency's interface\)/,
    );
  });

  it("has a fix's review judge it by the bug report as well", async () => {
    const user = render('review_fix_edit', {
      key: 'src/greet.js',
      changeTask: graph.tasks[0],
      bug: {
        summary: 'The English greeting lost its comma.',
        failingTests: ['AC-2'],
        files: [{ path: 'src/greet.js', problem: 'en must render "Hello, Ana!"' }],
      },
      editCriteria: await read('src/greet.js'),
      changeDependencies: [],
      designDelta: delta,
      draft: { diff: '--- a/src/greet.js\n+++ b/src/greet.js\n' },
    });
    assert.match(
      user,
      /### The bug it fixes \(QA's report: the fix must resolve it\)\nThe English greeting lost its comma\.\n- `src\/greet\.js`: en must render "Hello, Ana!"/,
    );
    assert.match(user, /which criterion it breaks \(the task, the bug report, the design delta,/);
  });

  it('shows the editor the criteria it serves, and the reviser what the ids its issues name mean', async () => {
    const criteria = await read('src/greet.js');
    const edit = render('edit_file', {
      key: 'src/greet.js',
      changeTask: graph.tasks[0],
      editCriteria: criteria,
      changeDependencies: [],
      designDelta: delta,
      changeRequest: request,
      original: { content: 'export default function greet(name) {}\n' },
    });
    assert.match(edit, /The change request's acceptance criteria it serves \(its review judges it by them, and by what must keep working\): AC-1, AC-2\./);
    const revise = render('revise_edit', {
      key: 'src/greet.js',
      changeTask: graph.tasks[0],
      editCriteria: criteria,
      draft: { content: 'x' },
      review: { approved: false, issues: ['AC-2: greet("Ana") returns "Hello Ana" (src/greet.js, GREETINGS.en): restore the comma.'] },
      original: { content: 'export default function greet(name) {}\n' },
    });
    assert.match(revise, /## The criteria the issues name\n- AC-1: [^\n]*\n- AC-2: greet\("Ana"\) still returns "Hello, Ana!"\n- KW-1: /);
    // A file that serves no criterion, in a change with nothing named to keep working: no empty heading.
    const bare = render('revise_edit', {
      key: 'src/greet.js',
      changeTask: graph.tasks[0],
      editCriteria: { ...criteria, items: [], keep: [] },
      draft: { content: 'x' },
      review: { approved: false, issues: ['greet() throws on an empty name: return "Hello!" instead.'] },
      original: { content: 'export default function greet(name) {}\n' },
    });
    assert.ok(!bare.includes('The criteria the issues name'), bare);
    assert.match(bare, /## Issues\n- greet\(\) throws on an empty name: return "Hello!" instead\.\n\n## src\/greet\.js as it is now \(with your change\)\n/);
    // What must keep working alone still has its heading.
    const keepOnly = render('revise_edit', {
      key: 'src/greet.js',
      changeTask: graph.tasks[0],
      editCriteria: { ...criteria, items: [] },
      draft: { content: 'x' },
      review: { approved: false, issues: ['KW-1: the CLI prints nothing.'] },
      original: { content: 'export default function greet(name) {}\n' },
    });
    assert.match(
      keepOnly,
      /\n\n## The criteria the issues name\n- KW-1: the CLI prints one greeting per name\n- KW-2: [^\n]*\n\n## src\/greet\.js as it is now/,
    );
  });
});
