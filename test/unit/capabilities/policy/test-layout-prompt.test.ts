/**
 * The test layout the prompts state (roles/_shared/test-layout.hbs: where each language's tests go, and
 * the commands that run them and the program) is one the shipped policy allows: every test path it
 * names QA may write and the Engineer may not, every command it names QA may run — so a model that
 * follows it is never refused.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { loadPolicy } from '../../../../src/capabilities/policy/load-policy.ts';
import { commandRefusal } from '../../../../src/capabilities/policy/may-run.ts';
import { writeRefusal } from '../../../../src/capabilities/policy/may-write.ts';
import { ROLES, ROOT } from '../../../helpers/paths.ts';

const LAYOUT = fs.readFileSync(path.join(ROLES, '_shared', 'test-layout.hbs'), 'utf8');
/** The code spans of the layout, each placeholder (`<module>`) made a name. */
const spans = [...LAYOUT.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.replace(/<[a-z]+>/g, 'table'));
const RUNNERS = /^(node|python3|pytest|go|cargo) /;

describe('the test layout the prompts state', () => {
  it('names only test files QA may write and the Engineer may not, and commands QA may run', async () => {
    const policy = await loadPolicy(path.join(ROOT, 'sops'));
    // The test files it names (a source file it names beside one, `checker/parse.go`, is the Engineer's).
    const files = spans.filter((span) => /\.(js|ts|py|go|rs)$/.test(span) && !span.includes(' ') && /test/.test(span));
    const commands = spans.filter((span) => RUNNERS.test(span));
    assert.ok(files.some((f) => f.endsWith('_test.go')) && files.some((f) => f.startsWith('tests/test_')), files.join(', '));
    assert.ok(commands.some((c) => c.startsWith('go run')) && commands.some((c) => c.startsWith('go test')), commands.join(', '));
    for (const file of files) {
      assert.equal(writeRefusal(policy, 'qa', file), null, `QA may write ${file}`);
      assert.notEqual(writeRefusal(policy, 'engineer', file), null, `the Engineer may not write ${file}`);
    }
    for (const command of commands) assert.equal(commandRefusal(policy, 'qa', command.split(' ')), null, command);
  });

  it('is in every prompt that asks for a design or for new tests', () => {
    for (const prompt of ['architect/write_design', 'qa/write_tests', 'qa/write_file_tests', 'qa/write_criterion_tests', 'qa/revise_tests'])
      assert.match(fs.readFileSync(path.join(ROLES, `${prompt}.hbs`), 'utf8'), /\{\{> test-layout\}\}/, prompt);
  });
});
