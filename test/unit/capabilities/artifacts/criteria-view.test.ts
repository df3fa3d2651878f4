/** The `criteria` view: the PRD's acceptance criteria a file serves, as its task names them by number. */
import assert from 'node:assert/strict';
import { criteria } from '../../../../src/capabilities/artifacts/views.ts';
import type { PRD, TaskGraph } from '../../../../src/documents/index.ts';
import type { BoardReader, Message } from '../../../../src/engine/board/index.ts';
import { initialContext } from '../../../../src/engine/steps/index.ts';

const prd: Pick<PRD, 'acceptanceCriteria'> = {
  acceptanceCriteria: ['`todo add milk` adds an item', '`todo list` shows the items, numbered', 'An unknown command exits 2 with the usage'],
};

function boardWith(graph: TaskGraph): BoardReader {
  const messages: Record<string, unknown> = { PRD: prd, TaskGraph: graph };
  const message = (type: string) => ({ id: 'msg-000001', seq: 1, type, from: 'x', to: 'all', causedBy: [], createdAt: '', payload: messages[type] }) as Message;
  return { latest: (type) => (type in messages ? (message(type) as never) : undefined), all: (type) => (type in messages ? [message(type) as never] : []) };
}

const read = (graph: TaskGraph, file: string) => criteria.read({ context: { ...initialContext(), current: file }, board: boardWith(graph) }, 'criteria');

describe('the criteria view', () => {
  const graph: TaskGraph = {
    tasks: [
      { file: 'src/cli.js', description: 'the command line', dependsOn: ['src/store.js'], criteria: [3, 1] },
      { file: 'src/store.js', description: 'the items', dependsOn: [], criteria: [] },
      { file: 'src/format.js', description: 'the list', dependsOn: [], criteria: [2, 9] },
    ],
  };

  it('gives the criteria the task names, by number, in its order, each with its id', () => {
    assert.deepEqual(read(graph, 'src/cli.js'), {
      named: true,
      items: [
        { number: 3, id: 'AC-3', text: 'An unknown command exits 2 with the usage' },
        { number: 1, id: 'AC-1', text: '`todo add milk` adds an item' },
      ],
    });
  });

  it('gives none for a task that serves none directly, and skips a number the PRD does not have', () => {
    assert.deepEqual(read(graph, 'src/store.js'), { named: true, items: [] });
    assert.deepEqual(read(graph, 'src/format.js'), { named: true, items: [{ number: 2, id: 'AC-2', text: '`todo list` shows the items, numbered' }] });
  });

  it('gives every criterion, and says it was not named, for a task graph from before tasks named them', () => {
    const older: TaskGraph = { tasks: [{ file: 'src/cli.js', description: 'the command line', dependsOn: [] }] };
    const shown = read(older, 'src/cli.js') as { named: boolean; items: unknown[] };
    assert.equal(shown.named, false);
    assert.equal(shown.items.length, 3);
  });
});
