/** role.yaml's people: the seats of `--engineers N`, the second person who reviews a role held by one, and a reviewer as a review prompt presents them. */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { asReviewerOf, loadRoleProfile, RoleProfile, reviewerOf, seatsOf } from '../../../../src/engine/roles/role-profile.ts';
import { ROLES } from '../../../helpers/paths.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

const carol: RoleProfile = {
  ...RoleProfile.parse({ name: 'Carol', title: 'Engineer', goal: 'Write the files.', constraints: ['Write the whole file.'] }),
  id: 'engineer',
  email: 'engineer@sopworks.local',
};
const withReviewer: RoleProfile = { ...carol, reviewer: { name: 'Frank', goal: 'Review the files.', constraints: ['Judge by the criteria.'] } };

describe('role profiles', () => {
  after(removeTempDirs);

  it("names a role held by one person's reviewer after role.yaml's `reviewer`, a person of their own who is not the writer", () => {
    const frank = reviewerOf(withReviewer);
    assert.deepEqual([frank.id, frank.name, frank.title, frank.email], ['engineer', 'Frank', 'Reviewing Engineer', 'engineer-reviewer@sopworks.local']);
    assert.notEqual(frank.email, carol.email);
  });

  it('gives a reviewer a name of their own when role.yaml names none, and a title when it gives one', () => {
    assert.equal(reviewerOf(carol).name, 'Carol 2');
    assert.equal(reviewerOf({ ...carol, reviewer: { name: 'Frank', title: 'Code Reviewer' } }).title, 'Code Reviewer');
  });

  it("presents a reviewer as judging the writer's work, with the reviewer's goal and constraints instead of the writer's", () => {
    const asked = asReviewerOf(reviewerOf(withReviewer), carol);
    assert.deepEqual(asked.reviewing, { name: 'Carol', title: 'Engineer' });
    assert.equal(asked.goal, 'Review the files.');
    assert.deepEqual(asked.constraints, ['Judge by the criteria.']);
  });

  it("gives a reviewer a reviewer's goal and none of the writer's constraints when role.yaml says nothing of reviews", () => {
    const [first, second] = seatsOf(carol, 2) as [RoleProfile, RoleProfile];
    const asked = asReviewerOf(second, first);
    assert.deepEqual([asked.name, asked.title, asked.reviewing], ['Carol 2', 'Engineer 2', { name: 'Carol', title: 'Engineer 1' }]);
    assert.match(asked.goal, /^Review the work of another person of your role/);
    assert.deepEqual(asked.constraints, []);
  });

  it("reads the shipped Engineer's reviewer from its role.yaml", async () => {
    const engineer = await loadRoleProfile(ROLES, 'engineer');
    assert.ok(engineer.reviewer?.name && engineer.reviewer.name !== engineer.name, 'a second person, by a name of their own');
    assert.ok(engineer.reviewer.goal && engineer.reviewer.goal !== engineer.goal);
  });

  it('refuses a reviewer field it does not know, naming it', async () => {
    const dir = await tempDir('sopworks-role-');
    await fs.mkdir(path.join(dir, 'engineer'));
    await fs.writeFile(path.join(dir, 'engineer', 'role.yaml'), 'name: Carol\ntitle: Engineer\ngoal: Write.\nreviewer:\n  name: Frank\n  goals: Review.\n');
    await assert.rejects(loadRoleProfile(dir, 'engineer'), /goals/);
  });
});
