/**
 * Work prepared ahead of need (src/capabilities/model/warm-up.ts): done in order, one task per turn of the event loop
 * so that whatever else is ready runs in between, a failing task dropped without stopping the rest.
 * And the templates it compiles render as they would have (prompt-renderer.ts).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { PromptRenderer } from '../../../../src/capabilities/model/prompt-renderer.ts';
import { WarmUp } from '../../../../src/capabilities/model/warm-up.ts';
import { markdownRenderers } from '../../../../src/company/index.ts';
import type { RoleProfile } from '../../../../src/engine/roles/index.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

const settle = async () => {
  for (let i = 0; i < 20; i++) await nextTurn();
};

describe('warm-up', () => {
  after(removeTempDirs);

  it('runs the tasks in order, one per turn of the event loop, and goes on past a task that fails', async () => {
    const done: string[] = [];
    const warmUp = new WarmUp();
    warmUp.add([
      () => void done.push('a'),
      () => {
        throw new Error('a task that fails');
      },
      () => void done.push('c'),
    ]);
    assert.equal(done.length, 0, 'nothing runs before the next turn');
    await nextTurn();
    assert.deepEqual(done, ['a'], 'one task on the first turn');
    warmUp.add([() => void done.push('d')]);
    await settle();
    assert.deepEqual(done, ['a', 'c', 'd']);
    warmUp.add([() => void done.push('e')]);
    await settle();
    assert.deepEqual(done, ['a', 'c', 'd', 'e'], 'tasks added after the queue ran dry run too');
  });

  it('compiles a template ahead of use; it then renders, and fails on a missing name, as before', async () => {
    const roles = await tempDir('sopworks-warm-');
    await fs.mkdir(path.join(roles, '_shared'));
    await fs.mkdir(path.join(roles, 'writer'));
    await fs.writeFile(path.join(roles, '_shared', 'system.hbs'), 'You are {{role.title}}.');
    await fs.writeFile(path.join(roles, '_shared', 'format-json.hbs'), 'Reply in JSON: {{schema}}');
    await fs.writeFile(path.join(roles, 'writer', 'write.hbs'), 'Write about {{topic}}.');
    const renderer = new PromptRenderer(roles, markdownRenderers);
    for (const task of renderer.warmUpTasks(['writer'])) task();
    renderer.warmUpTask('writer', 'write')();
    const profile: RoleProfile = { id: 'writer', name: 'Wren', title: 'Writer', goal: 'write', constraints: [], email: 'writer@sopworks.local' };
    const prompt = renderer.render(profile, 'write', { topic: 'rivers' }, { kind: 'json', schema: '{}' });
    assert.equal(prompt.system, 'You are Writer.');
    assert.match(prompt.user, /^Write about rivers\.\n\nReply in JSON: \{\}/);
    assert.throws(() => renderer.render(profile, 'write', {}, { kind: 'json', schema: '{}' }), /failed to render: "topic" not defined/);
  });
});
