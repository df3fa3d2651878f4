/**
 * A change run saved under an older change SOP resumes under today's: one whose QA was already writing its
 * tests (`writingTests`) when it stopped, saved before the SOP had the nearestTests step, kept no
 * `existingTests` slot — which today's write_change_tests asks for. Resumed, QA is asked again, shown no
 * existing tests (the partial's guard for the step restored with the older list, the view's fallback for
 * one invoked with today's), and the run ends done, the tests on the branch.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { GREETINGS_BRANCH as BRANCH, changeSetUp, GREETINGS_SCENARIO, git, type Reply } from '../helpers/change-repo.ts';
import { sopworks } from '../helpers/in-process.ts';
import { ROOT } from '../helpers/paths.ts';
import { removeTempDirs } from '../helpers/temp-dir.ts';

interface Invoked {
  snapshot: { input: { params: { with: string[] }; context: { slots: Record<string, unknown> } } };
}
interface SavedRole {
  state: string;
  snapshot: { context: { slots: Record<string, unknown> }; children: Record<string, Invoked> };
}

describe('resuming a change saved under an older SOP', function () {
  this.timeout(300_000);
  after(removeTempDirs);

  // Restored in flight, the step has the older SOP's `with` list; invoked again (a rejection, a repair), today's, with no such slot.
  for (const invoked of ["with the older SOP's list", "with today's list"] as const)
    it(`resumes QA in writingTests without the existingTests slot it never kept (the step ${invoked}), and ends done`, async () => {
      // The run stops in writingTests: its scenario has no reply there yet.
      const run = await changeSetUp((replies) => replies.filter((r) => r.action !== 'write_change_tests'));
      const stopped = await run.change();
      assert.equal(stopped.code, 1, stopped.stdout + stopped.stderr);
      const saved = path.join(run.worktree, '.sopworks', 'roles', 'qa.json');
      const qa = JSON.parse(await fs.readFile(saved, 'utf8')) as SavedRole;
      assert.equal(qa.state, 'writingTests');
      // As the older SOP saved it: no nearestTests step ran, so no such slot.
      assert.ok('existingTests' in qa.snapshot.context.slots);
      delete qa.snapshot.context.slots.existingTests;
      // The step in flight was invoked with the older SOP's list, and a copy of the context without the slot.
      const asking = Object.values(qa.snapshot.children)[0]!.snapshot.input;
      if (invoked.includes('older')) asking.params.with = asking.params.with.filter((name) => name !== 'existingTests');
      else assert.ok(asking.params.with.includes('existingTests'));
      delete asking.context.slots.existingTests;
      await fs.writeFile(saved, JSON.stringify(qa));
      // The reply QA had not been given, now there.
      const full = parse(await fs.readFile(GREETINGS_SCENARIO, 'utf8')) as { replies: Reply[] };
      await fs.writeFile(run.scenarioFile, stringify(full));

      const resumed = await sopworks(['resume', run.worktree], { cwd: ROOT });
      assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
      assert.match(resumed.stdout, /Outcome\s+done/);
      const exchanges = (await fs.readFile(path.join(run.worktree, '.sopworks', 'exchanges.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { action: string; messages: { content: string }[] });
      const asked = exchanges
        .filter((e) => e.action === 'write_change_tests')
        .at(-1)!
        .messages.at(-1)!.content;
      assert.doesNotMatch(asked, /The repository's tests nearest to this change/, 'no existing tests shown: the older run kept none');
      assert.match(git(run.repo, 'ls-tree', '-r', '--name-only', BRANCH), /^test\/greet-lang\.test\.js$/m);
      run.untouched();
    });
});
