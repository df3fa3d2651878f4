/**
 * A change's file that documents or declares another (README.md, index.d.ts) depends on it and is shown
 * it as the change leaves it (issue 36, trial redact1: whoever edited README.md never saw the new index.js).
 */
import assert from 'node:assert/strict';
import { changeDependencies } from '../../../../src/capabilities/change/change-views.ts';
import { PromptRenderer } from '../../../../src/capabilities/model/index.ts';
import { markdownRenderers } from '../../../../src/company/index.ts';
import { type ChangeTaskGraph, validateTaskGraph } from '../../../../src/documents/index.ts';
import type { BoardReader, Message } from '../../../../src/engine/board/index.ts';
import { initialContext } from '../../../../src/engine/steps/index.ts';
import { ROLES } from '../../../helpers/paths.ts';

const graph: ChangeTaskGraph = {
  tasks: [
    { file: 'index.js', op: 'modify', from: null, description: 'add redact(value, paths, censor)', dependsOn: [] },
    { file: 'index.d.ts', op: 'modify', from: null, description: 'declare redact', dependsOn: ['index.js'] },
    { file: 'README.md', op: 'modify', from: null, description: 'document redact with an example', dependsOn: ['index.js', 'index.d.ts'] },
  ],
};
const indexJs = "export function redact(value, paths, censor = '[REDACTED]') {\n  return value;\n}\n";

function boardWith(codes: { path: string; content: string }[]): BoardReader {
  const message = (type: string, payload: unknown, seq: number) =>
    ({ id: `msg-${seq}`, seq, type, from: 'x', to: 'all', causedBy: [], createdAt: '', payload }) as Message;
  const all = (type: string) => (type === 'ChangeTaskGraph' ? [message(type, graph, 1)] : type === 'Code' ? codes.map((c, i) => message(type, c, i + 2)) : []);
  return { latest: (type) => all(type).at(-1) as never, all: (type) => all(type) as never };
}

const read = (board: BoardReader, current: string) =>
  changeDependencies.read({ context: { ...initialContext(), current }, board }, 'changeDependencies') as Promise<{ path: string; interface: string }[]>;

describe('a change task that documents or declares a file depends on it', () => {
  it('is a valid task graph: the README after the code it describes', () => {
    assert.deepEqual(validateTaskGraph(graph, { files: graph.tasks.map((t) => ({ path: t.file, purpose: t.description })) }), []);
  });

  it("shows the file as the change left it: its new export's whole signature, or that it is not written yet", async () => {
    const shown = await read(boardWith([{ path: 'index.js', content: indexJs }]), 'README.md');
    assert.deepEqual(
      shown.map((d) => d.path),
      ['index.js', 'index.d.ts'],
    );
    assert.match(shown[0]!.interface, /redact\(value, paths, censor = '\[REDACTED\]'\)/);
    assert.equal(shown[1]!.interface, '(not written yet)');
    assert.deepEqual(await read(boardWith([]), 'index.js'), []);
  });

  it('puts it in the prompt that edits the file and in the one that reviews the edit', async () => {
    const dependencies = await read(boardWith([{ path: 'index.js', content: indexJs }]), 'index.d.ts');
    const renderer = new PromptRenderer(ROLES, markdownRenderers);
    const profile = { id: 'engineer', name: 'Carol', title: 'Engineer', goal: 'Write code.', constraints: [], email: 'e@x' };
    const variables = {
      key: 'index.d.ts',
      changeTask: graph.tasks[1],
      changeDependencies: dependencies,
      changeRequest: { title: 't', summary: 's', changes: [], acceptanceCriteria: [], mustKeepWorking: [] },
      designDelta: { summary: 's', approach: 'a', language: 'JavaScript', testCommand: ['npm', 'test'], files: [], unchanged: [] },
      original: { content: 'export {};\n' },
      draft: { diff: '--- a/index.d.ts\n+++ b/index.d.ts\n' },
      editCriteria: { named: false, items: [], keep: [], file: null },
    };
    for (const action of ['edit_file', 'review_edit']) {
      const { user } = renderer.render(profile as never, action, variables, {
        kind: action === 'edit_file' ? 'edits' : 'json',
        path: 'index.d.ts',
        schema: '{}',
      });
      assert.match(
        user,
        /The files it depends on(, as this change leaves them \(their interfaces\)|: it must use each as its interface says)\n#{3,4} index\.js\n`{3,}[^\n]*\n[^`]*redact\(value, paths/,
        action,
      );
    }
  });
});
