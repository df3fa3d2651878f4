/**
 * Scoped prompts, shown on what the model was sent (exchanges.jsonl records every prompt): a per-file
 * prompt carries the design's part about the file and its dependencies' interfaces — not other files —
 * so its size does not grow with the project; a fix carries the failing output and the file it fixes.
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

    it("carries the interface of the file's dependency, not its body, and nothing of unrelated files", () => {
      const text = prompt(sent(large, 'write_file', 'src/m12.js'));
      assert.match(text, /export function step11\(x\) \{ … \}/, "the dependency's signature");
      assert.doesNotMatch(text, /mixing round 0 of stage 11/, "the dependency's body");
      for (const other of [0, 5, 10, 13, 19]) {
        assert.doesNotMatch(text, new RegExp(`mixing round \\d+ of stage ${other}\\b|step${other}\\(x\\)`), `src/m${other}.js`);
      }
    });

    it('is as long in a project of 20 files as in one of 5, for the same file', () => {
      for (const action of ['write_file', 'review_file']) {
        const [five, twenty] = [sent(small, action, 'src/m2.js'), sent(large, action, 'src/m2.js')];
        assert.equal(twenty.usage.promptTokens, five.usage.promptTokens, `${action} src/m2.js`);
      }
      // The module the scenario writes for src/m2.js is the same in both projects.
      assert.equal(moduleSource(graphs.small, 2, 0), moduleSource(graphs.large, 2, 0));
    });

    it('sends a review the file and the criteria it is judged by: its task, its interface, its acceptance criteria, its dependencies', () => {
      const text = sent(large, 'review_file', 'src/m12.js').messages.at(-1)!.content;
      assert.match(text, /^### 1\. Its task\nExport step12\(x\) as described in the design, calling step11\.$/m);
      assert.match(text, /^### 2\. Its interface in the design\n`src\/m12\.js`: step12\(x\): stage 12, using step11$/m);
      assert.match(text, /^### 3\. The acceptance criteria it serves\n- AC-1: Every stage returns a finite number for any finite input$/m);
      assert.match(text, /^### 4\. The files it depends on: it must use each as its interface says\n#### src\/m11\.js\n```\n\/\*\*$/m);
      // What no criterion needs is not sent: the project's summary and approach, its commands, the other files' rows.
      for (const gone of ['dependency-free ES module library', 'One module per stage', 'node --test', 'step10(x): stage 10']) {
        assert.ok(!text.includes(gone), `"${gone}" is not sent to the review:\n${text}`);
      }
      const writing = sent(large, 'write_file', 'src/m12.js').messages.at(-1)!.content;
      assert.match(
        writing,
        /^## The acceptance criteria it serves\n- AC-1: Every stage returns a finite number for any finite input$/m,
        'the writer sees the same criteria',
      );
    });

    it("opens each of the Engineer's file prompts alike, for a provider's prompt cache: the design's overview first, the file's own part after", () => {
      const writes = large.filter((e) => e.action === 'write_file');
      assert.equal(writes.length, 21, 'the 20 modules and the README');
      const first = writes[0]!.messages.at(-1)!.content;
      const start = first.slice(0, first.indexOf('## The part of the design that concerns'));
      assert.match(start, /^## Design\n[\s\S]*- Tests run with: `node --test`\n\n$/);
      for (const e of writes) {
        assert.equal(e.messages[0]!.content, writes[0]!.messages[0]!.content, 'the same system prompt');
        assert.ok(e.messages.at(-1)!.content.startsWith(start), `${e.key} opens with the same start`);
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
      // It opens as the Engineer's writing prompts do (the design's overview), so a prompt cache serves that start.
      const writing = sent(list, 'write_file', 'src/tokenize.js').messages.at(-1)!.content;
      const overview = writing.slice(0, writing.indexOf('\n## ', 1));
      assert.match(overview, /^## Design\n\S[\s\S]*- Tests run with: `node --test`/);
      assert.ok(sent(list, 'fix_file', 'src/tokenize.js').messages.at(-1)!.content.startsWith(overview));
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
