/**
 * The first prompt of a change on a 680-file repository stays under 4,000 tokens: the map's tree is
 * folded to its budget (docs, changelog fragments, examples and tests first), manifests and README are
 * clipped, the signatures keep their budget — and it still names the files the request is about.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { sopworks } from '../helpers/in-process.ts';
import { largePythonRepository } from '../helpers/large-python-repo.ts';
import { ROOT } from '../helpers/paths.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const FIRST_PROMPT_TOKENS = 4000;

describe('sopworks change: the first prompt on a large repository', function () {
  this.timeout(180_000);
  after(removeTempDirs);

  it('stays under 4,000 tokens on 680 files, and names the files the request is about', async () => {
    const dir = await tempDir('sopworks-first-prompt-');
    const repo = path.join(dir, 'framework');
    await fs.mkdir(repo);
    assert.equal(await largePythonRepository(repo), 680);
    // Only the first reply: the run stops at the next call, which is all this test needs.
    const scenario = {
      spec: 'make the cache plugin skip entries whose key is empty',
      replies: [
        {
          role: 'product-manager',
          action: 'write_change_request',
          json: {
            title: 'The cache skips empty keys',
            summary: 'cache.set ignores an empty key.',
            changes: ['cache.set ignores an empty key.'],
            acceptanceCriteria: ['cache.set("", 1) stores nothing.'],
            mustKeepWorking: ['other keys'],
            outOfScope: [],
          },
        },
      ],
    };
    await fs.writeFile(path.join(dir, 'scenario.yaml'), stringify(scenario));
    const out = path.join(dir, 'out');
    await sopworks(['change', repo, '--llm', `scripted:${path.join(dir, 'scenario.yaml')}`, '--out', out], { cwd: ROOT });
    const worktree = path.join(out, (await fs.readdir(out))[0]!);
    const [first] = (await fs.readFile(path.join(worktree, '.sopworks', 'exchanges.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { action: string; usage: { promptTokens: number }; messages: { content: string }[] });
    assert.equal(first!.action, 'write_change_request');
    assert.ok(first!.usage.promptTokens < FIRST_PROMPT_TOKENS, `the first prompt is ${first!.usage.promptTokens} tokens`);
    const prompt = first!.messages.at(-1)!.content;
    assert.match(prompt, /^changelog\/: … 56 files, not listed/m, 'the tree is folded');
    assert.match(prompt, /^src\/_framework\/: .*\bcache_14\.py\b/m, "the package's files are listed");
    assert.match(prompt, /^def cache_/m, 'the signatures show what the request is about');
  });
});
