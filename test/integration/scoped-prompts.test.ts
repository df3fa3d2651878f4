/**
 * Scoped prompts, shown on what the model was sent (exchanges.jsonl records every prompt): every request
 * opens with the run's documents (the spec, the PRD, the design, whole: the start a provider's prompt
 * cache serves, docs/performance.md); what follows — the request's own part — carries, for a file, its
 * dependencies' interfaces and not other files, so that part does not grow with the project; a fix carries
 * the failing output and the file it fixes.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { makeGraph } from '../../bench/graphs.ts';
import { moduleSource, syntheticScenario } from '../../bench/scenario.ts';
import { readAppendLog } from '../../src/ground/files/index.ts';
import { ROOT } from '../helpers/paths.ts';
import { type CompanyRun, demoScenario, runScenario } from '../helpers/run-company.ts';
import { removeTempDirs } from '../helpers/temp-dir.ts';

interface Exchange {
  role: string;
  action: string;
  key: string | null;
  messages: { role: string; content: string }[];
  usage: { promptTokens: number };
}

async function exchanges(run: CompanyRun): Promise<Exchange[]> {
  return (await readAppendLog(path.join(run.project, '.sopworks', 'exchanges.jsonl'))).records as Exchange[];
}
const sent = (list: Exchange[], action: string, key: string | null): Exchange => {
  const found = list.find((e) => e.action === action && e.key === key);
  assert.ok(found, `the model was asked ${action} ${key}`);
  return found;
};
const prompt = (e: Exchange): string => e.messages.map((m) => m.content).join('\n');
/** The request's own part: what follows the documents it opens with (from who the role is on). */
const own = (e: Exchange): string => {
  const user = e.messages.at(-1)!.content;
  const at = user.indexOf('# Your part\n');
  assert.ok(at >= 0, `${e.action} ${e.key} says who the role is`);
  return user.slice(at);
};
/** The documents a request opens with. */
const opening = (e: Exchange): string => e.messages.at(-1)!.content.slice(0, e.messages.at(-1)!.content.indexOf('# Your part\n'));

describe('scoped prompts', function () {
  this.timeout(240_000);
  after(removeTempDirs);

  describe('on synthetic projects of 5 and 20 files (a chain: each file uses the one before)', () => {
    const graphs = { small: makeGraph('chain', 5), large: makeGraph('chain', 20) };
    let small: Exchange[];
    let large: Exchange[];

    before(async () => {
      const sops = path.join(ROOT, 'bench', 'sops');
      const [a, b] = [
        await runScenario(syntheticScenario(graphs.small, 'chain'), { sops }),
        await runScenario(syntheticScenario(graphs.large, 'chain'), { sops }),
      ];
      assert.equal(a.result.outcome, 'done', a.result.reason);
      assert.equal(b.result.outcome, 'done', b.result.reason);
      [small, large] = [await exchanges(a), await exchanges(b)];
    });

    it("carries the interface of the file's dependency, not its body, and nothing of unrelated files after the documents", () => {
      const text = own(sent(large, 'write_file', 'src/m12.js'));
      assert.match(text, /export function step11\(x\) \{ … \}/, "the dependency's signature");
      assert.doesNotMatch(prompt(sent(large, 'write_file', 'src/m12.js')), /mixing round 0 of stage 11/, "the dependency's body");
      for (const other of [0, 5, 10, 13, 19]) {
        assert.doesNotMatch(text, new RegExp(`mixing round \\d+ of stage ${other}\\b|step${other}\\(x\\)`), `src/m${other}.js`);
      }
    });

    it('is as long after the documents in a project of 20 files as in one of 5, for the same file', () => {
      for (const action of ['write_file', 'review_file']) {
        const [five, twenty] = [sent(small, action, 'src/m2.js'), sent(large, action, 'src/m2.js')];
        assert.equal(own(twenty), own(five), `${action} src/m2.js`);
        // The design it opens with lists every file: that part grows with the project, and is the part a cache serves.
        assert.ok(opening(twenty).length > opening(five).length);
      }
      // The module the scenario writes for src/m2.js is the same in both projects.
      assert.equal(moduleSource(graphs.small, 2, 0), moduleSource(graphs.large, 2, 0));
    });

    it('sends a review the file and the criteria it is judged by: its task, its interface, its acceptance criteria, its dependencies', () => {
      const review = sent(large, 'review_file', 'src/m12.js');
      const text = own(review);
      assert.match(text, /^### 1\. Its task\nExport step12\(x\) as described in the design, calling step11\.$/m);
      assert.match(text, /^### 2\. Its interface in the design\n`src\/m12\.js`: step12\(x\): stage 12, using step11$/m);
      // The criteria by their ids: their text is in the PRD the request opens with.
      assert.match(text, /^### 3\. The acceptance criteria it serves \(in the PRD above\)\n- AC-1$/m);
      assert.match(opening(review), /^- AC-1: Every stage returns a finite number for any finite input$/m);
      assert.match(text, /^### 4\. The files it depends on: it must use each as its interface says\n#### src\/m11\.js\n```\n\/\*\*$/m);
      // The design is not sent twice: its summary and approach, its commands, the other files' rows are in the documents only.
      for (const once of ['dependency-free ES module library', 'One module per stage', 'step10(x): stage 10']) {
        assert.ok(!text.includes(once) && opening(review).includes(once), `"${once}" is in the documents, not after them:\n${text}`);
      }
      assert.match(
        own(sent(large, 'write_file', 'src/m12.js')),
        /^## The acceptance criteria it serves \(in the PRD above\)\n- AC-1$/m,
        'the writer sees the same criteria',
      );
    });

    it("opens every prompt after the design alike, for a provider's prompt cache: the spec, the PRD, the design, then the role and the file's own part", () => {
      const writes = large.filter((e) => e.action === 'write_file');
      assert.equal(writes.length, 21, 'the 20 modules and the README');
      const start = opening(writes[0]!);
      assert.match(start, /^# The run's documents\n## The client's spec\n[\s\S]*Product Requirements[\s\S]*System design[\s\S]*`node --test`/);
      const later = large.slice(large.findIndex((e) => e.action === 'write_file'));
      assert.ok(later.some((e) => e.role === 'qa') && later.some((e) => e.action === 'review_file'));
      for (const e of [...large.filter((e) => e.role === 'architect' && e.action === 'write_tasks'), ...later]) {
        assert.equal(e.messages[0]!.content, large[0]!.messages[0]!.content, 'the same system prompt for every role');
        assert.ok(e.messages.at(-1)!.content.startsWith(start), `${e.role} ${e.action} ${e.key} opens with the same start`);
      }
    });

    it('gives QA every file (its tests cover the whole project): that one prompt grows with the project', () => {
      assert.ok(sent(large, 'write_tests', null).usage.promptTokens > sent(small, 'write_tests', null).usage.promptTokens);
    });
  });

  describe('a fix, on the demo', () => {
    it('carries the bug report, the failing output and the file to fix, not the rest of the project', async () => {
      const run = await runScenario(await demoScenario());
      assert.equal(run.result.outcome, 'done', run.result.reason);
      const list = await exchanges(run);
      const text = prompt(sent(list, 'fix_file', 'src/tokenize.js'));
      // It opens as the Engineer's writing prompts do (the run's documents), so a prompt cache serves that start.
      const start = opening(sent(list, 'write_file', 'src/tokenize.js'));
      assert.match(start, /^# The run's documents\n[\s\S]*System design[\s\S]*`node --test`/);
      assert.ok(sent(list, 'fix_file', 'src/tokenize.js').messages.at(-1)!.content.startsWith(start));
      assert.match(text, /## Test output \(round 1\)/);
      assert.match(text, /not ok|fail/i);
      assert.match(text, /## Current src\/tokenize\.js\n```\n[\s\S]*export function tokenize/);
      const others = run.result.messages.filter((m) => m.type === 'Code').map((m) => m.payload as { path: string; content: string });
      for (const other of others.filter((c) => c.path !== 'src/tokenize.js')) {
        const body = other.content.split('\n').slice(2, 6).join('\n');
        assert.ok(!text.includes(body), `nothing of ${other.path}`);
      }
    });
  });
});
