/**
 * The prompt tokens a provider's cache served, as it reported them, shown where usage is: the run's
 * summary, `--json` and `review`, per role with the hit rate — and counted at their price by `--budget`.
 * The demo's replies come from an OpenAI-compatible server that says how many prompt tokens its cache
 * served.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { startReviewServer } from '../../src/apps/review/index.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { demoRepliesInOrder, demoSpec } from '../helpers/demo-replies.ts';
import { sopworks } from '../helpers/in-process.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../helpers/openai-server.ts';
import { CHROMIUM, requireSystem } from '../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

/** $1/M input, $2/M output, $0.1/M cached input. */
const PRICES = { SOPWORKS_PRICE_INPUT: '1', SOPWORKS_PRICE_OUTPUT: '2', SOPWORKS_PRICE_CACHED_INPUT: '0.1', SOPWORKS_MAX_OUTPUT_TOKENS: '200' };
const PROMPT = 2000;
const CACHED = 1900;
const COMPLETION = 40;

describe('cached prompt tokens where usage is shown', function () {
  this.timeout(240_000);
  after(removeTempDirs);

  /** The demo's replies in the order a one-at-a-time run asks for them. */
  let replies: string[];
  /** The folder of the run made against the server by the first test. */
  let made: string | null = null;
  before(async () => {
    replies = await demoRepliesInOrder();
  });

  /** A server answering with the demo's replies; every request after the first says 1,900 of its 2,000 prompt tokens were cached. */
  const server = (): Promise<FakeOpenAI> =>
    startFakeOpenAI({
      replies: replies.map((content, i) => ({
        content,
        usage: { prompt_tokens: PROMPT, completion_tokens: COMPLETION, prompt_tokens_details: { cached_tokens: i === 0 ? 0 : CACHED } },
      })),
    });

  const run = async (out: string, url: string, extra: string[]) =>
    sopworks(['run', await demoSpec(), '--name', 'wordfreq', '--out', out, '--concurrency', '1', ...extra], {
      cwd: out,
      env: { OPENAI_BASE_URL: url, SOPWORKS_MODEL: 'test-model', ...PRICES },
    });

  it('shows cached tokens and the hit rate per role in the summary, --json and review, and --budget pays them at their price', async () => {
    const fake = await server();
    try {
      const out = await tempDir();
      // The demo's 27 calls cost $0.056 with every prompt token at the input price, $0.012 with the cached ones at theirs.
      const result = await run(out, fake.url, ['--budget', '0.03', '--json']);
      assert.equal(result.code, 0, result.stdout + result.stderr);
      const calls = fake.chatRequests().length;
      assert.equal(calls, replies.length, 'one request per recorded reply');
      const summary = result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line))
        .find((line) => line.type === 'summary');
      assert.equal(summary.outcome, 'done');
      assert.equal(summary.usage.calls, calls, 'every call the server answered is counted');
      assert.ok(calls * PROMPT * 1e-6 + calls * COMPLETION * 2e-6 > 0.03, 'at the full input price the run would not fit the budget');
      assert.equal(summary.usage.promptTokens, calls * PROMPT);
      assert.equal(summary.usage.cachedPromptTokens, (calls - 1) * CACHED);
      assert.equal(summary.usage.cacheHitRate, ((calls - 1) * CACHED) / (calls * PROMPT));
      const expected = ((calls * PROMPT - (calls - 1) * CACHED) * 1 + (calls - 1) * CACHED * 0.1 + calls * COMPLETION * 2) / 1e6;
      assert.ok(Math.abs(summary.usage.costUsd - expected) < 1e-9, `cost ${summary.usage.costUsd}, expected ${expected}`);
      assert.deepEqual(
        summary.usageByRole.map((r: { role: string }) => r.role),
        ['product-manager', 'architect', 'engineer', 'qa'],
      );
      const engineer = summary.usageByRole.find((r: { role: string }) => r.role === 'engineer');
      assert.equal(engineer.cacheHitRate, CACHED / PROMPT, 'every Engineer call was served 1,900 of its 2,000 tokens');

      made = out;
      const project = path.join(out, 'wordfreq');
      const review = await sopworks(['review', project], { cwd: out, env: { COLUMNS: '160' } });
      assert.equal(review.code, 0, review.stderr);
      assert.match(review.stdout, /role\s+calls\s+prompt tokens\s+cached\s+hit rate\s+completion tokens/);
      assert.match(review.stdout, /^\s*engineer\s+\d+\s+[\d,]+\s+[\d,]+\s+95\.0%\s/m);
    } finally {
      await fake.close();
    }
  });

  it("prints the cached tokens and hit rate in the run's summary, per role in review", async () => {
    const fake = await server();
    try {
      const out = await tempDir();
      const result = await run(out, fake.url, []);
      assert.equal(result.code, 0, result.stdout + result.stderr);
      // Every call of 2,000 prompt tokens, all but the first served 1,900 by the cache.
      const usage = /^Usage\s+[\d,]+ tokens, cost \$[\d.]+, [\d.]+s — (\d+) calls, ([\d,]+) prompt, [\d,]+ completion; ([\d,]+) cached, (\d+\.\d)%$/m.exec(
        result.stdout,
      );
      assert.ok(usage, result.stdout);
      const [calls, prompt, cached] = usage.slice(1, 4).map((v) => Number(v!.replaceAll(',', '')));
      assert.deepEqual([prompt, cached], [calls! * PROMPT, (calls! - 1) * CACHED]);
      assert.equal(usage[4], ((100 * cached!) / prompt!).toFixed(1));
      const review = await sopworks(['review', path.join(out, 'wordfreq')], { cwd: out, env: { COLUMNS: '160' } });
      assert.match(review.stdout, /^\s*qa\s+\d+\s+[\d,]+\s+[\d,]+\s+95\.0%\s/m);
      assert.match(review.stdout, /^\s*product-manager\s+\d+\s+[\d,]+\s+[\d,]+\s+\d+\.\d%\s/m);
    } finally {
      await fake.close();
    }
  });

  it('shows them per role in the workbench', async function () {
    requireSystem(this, CHROMIUM);
    assert.ok(made, 'the run of the first test');
    const [server, browser] = await Promise.all([startReviewServer({ dir: made, port: 0, host: '127.0.0.1' }), launchBrowser()]);
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(`${server.url}runs/wordfreq`);
      await page.waitForSelector('table.usage tbody tr');
      const rows: string[][] = await page.evaluate(() =>
        [...(globalThis as any).document.querySelector('table.usage').querySelectorAll('tr')].map((tr: any) =>
          [...tr.children].map((cell: any) => cell.textContent),
        ),
      );
      assert.deepEqual(rows[0]!.slice(0, 5), ['role', 'calls', 'prompt tokens', 'cached', 'hit rate']);
      const engineer = rows.find((r) => r[0] === 'engineer');
      assert.equal(engineer?.[4], '95.0%');
    } finally {
      await browser.close();
      await server.close();
    }
  });
});
