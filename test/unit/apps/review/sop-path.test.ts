import assert from 'node:assert/strict';
import { actionStates, visitedStates } from '../../../../src/apps/review/sop-path.ts';
import { sopStateDiagram } from '../../../../src/engine/sop/index.ts';
import type { SopFile } from '../../../../src/engine/steps/index.ts';

const sop = {
  initial: 'writing',
  states: {
    writing: { invoke: { src: 'ask', input: { action: 'write_file' }, onDone: 'review' } },
    review: {
      initial: 'reviewing',
      states: {
        reviewing: { invoke: { src: 'ask', input: { action: 'review_file' }, onDone: 'deciding' } },
        deciding: { always: [{ target: '#done' }] },
      },
    },
    revising: { invoke: { src: 'ask', input: { action: 'revise_file' }, onDone: 'review' } },
    done: { type: 'final' },
  },
} as unknown as SopFile;

describe('the path a run took through a SOP', () => {
  it('finds the states that call the model, nested ones by their dotted path', () => {
    assert.deepEqual(actionStates(sop), [
      { state: 'writing', actions: ['write_file'] },
      { state: 'review.reviewing', actions: ['review_file'] },
      { state: 'revising', actions: ['revise_file'] },
    ]);
  });

  it('marks the states whose actions the run called, apart from the current one', () => {
    const visited = visitedStates(sop, new Set(['write_file', 'review_file']));
    assert.deepEqual(visited, ['writing', 'review.reviewing']);
    const diagram = sopStateDiagram(sop, { highlight: 'writing', visited });
    assert.match(diagram, /class review__reviewing visited\n/);
    assert.match(diagram, /class writing current\n/);
  });
});
