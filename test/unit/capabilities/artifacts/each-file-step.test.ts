/** `fileSeats`: who writes a file and who reviews it — never the same person, whatever the number of Engineers. */
import assert from 'node:assert/strict';
import { fileSeats } from '../../../../src/capabilities/artifacts/each-file-step.ts';
import type { TaskGraph } from '../../../../src/documents/index.ts';
import { RoleProfile, seatsOf } from '../../../../src/engine/roles/index.ts';

const engineer: RoleProfile = {
  ...RoleProfile.parse({ name: 'Carol', title: 'Engineer', goal: 'Write the files.', reviewer: { name: 'Frank', goal: 'Review the files.' } }),
  id: 'engineer',
  email: 'engineer@sopworks.local',
};
const graph: TaskGraph = {
  tasks: ['src/a.js', 'src/b.js', 'src/c.js'].map((file) => ({ file, description: file, dependsOn: [], criteria: [] })),
} as TaskGraph;

describe('fileSeats', () => {
  it("with one Engineer, has every file reviewed by the role's second person, who is told whose work it is", () => {
    for (const file of ['src/a.js', 'src/c.js', 'test/unnamed.test.js']) {
      const { writer, reviewer } = fileSeats([engineer], file, graph);
      assert.equal(writer, engineer);
      assert.deepEqual([reviewer.name, reviewer.email, reviewer.goal], ['Frank', 'engineer-reviewer@sopworks.local', 'Review the files.']);
      assert.deepEqual(reviewer.reviewing, { name: 'Carol', title: 'Engineer' });
    }
  });

  it('with several Engineers, deals the files out in task order and has the next one review each', () => {
    const seats = seatsOf(engineer, 3);
    const who = graph.tasks.map((t) => fileSeats(seats, t.file, graph));
    assert.deepEqual(
      who.map(({ writer, reviewer }) => [writer.title, reviewer.title, reviewer.reviewing?.title]),
      [
        ['Engineer 1', 'Engineer 2', 'Engineer 1'],
        ['Engineer 2', 'Engineer 3', 'Engineer 2'],
        ['Engineer 3', 'Engineer 1', 'Engineer 3'],
      ],
    );
    for (const { writer, reviewer } of who) {
      assert.notEqual(reviewer.email, writer.email);
      assert.equal(reviewer.goal, 'Review the files.');
      assert.equal(writer.goal, 'Write the files.');
    }
  });
});
