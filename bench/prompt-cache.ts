/**
 * `npm run bench:cache`: how much of a run's prompts a cache can serve (issue 29, Must 6).
 *
 * 1. A provider's prefix cache (OpenAI's, vLLM's, llama.cpp's server's): the prompts of the offline demo
 *    and of the 40-file synthetic project (`npm run bench`'s "mix"), in the order they were sent; each
 *    request's longest prefix shared with an earlier one, counted as OpenAI serves it — from 1,024
 *    tokens on, in steps of 128 — over all prompt tokens.
 * 2. The local engine: the demo's prompts, in order, through node-llama-cpp on one context sequence,
 *    with the prefix a call shares with the call before reused, and with every prompt read whole (as
 *    without a cache). The tokens each way are counted by the engine (the test model's llama tokenizer,
 *    which the real-shaped models share); their time is taken on a real-shaped model of random weights
 *    (make-shape-gguf.py) for the first calls — ratios in one run, the machine being shared.
 *
 *   npm run bench:cache -- [--shape-model .cache/bench-models/smollm2-135m-shape.gguf] [--timed-calls 6] [--roles DIR]
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { encode } from 'gpt-tokenizer';
import { parse } from 'yaml';
import type { ChatMessage } from '../src/capabilities/model/provider.ts';
import { LocalProvider } from '../src/capabilities/model/providers/local/local-provider.ts';
import { ScriptedProvider } from '../src/capabilities/model/providers/scripted.ts';
import { Scenario } from '../src/capabilities/model/scenario.ts';
import { loadCompany } from '../src/company/load-company.ts';
import type { RunEvent } from '../src/company/run-events.ts';
import { startRun } from '../src/company/start-run.ts';
import { makeGraph } from './graphs.ts';
import { syntheticScenario } from './scenario.ts';
import { runSynthetic } from './synthetic-run.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TINY = path.join(ROOT, 'test', 'fixtures', 'models', 'llama-2-tiny-random.gguf');
/** OpenAI's prompt caching: prefixes of 1,024 tokens or more, served in steps of 128. */
const MIN_PREFIX = 1024;
const STEP = 128;

/** The prompts of a run as sent, in order (a call's first attempt: re-asks keep its prefix). */
const promptsOf = (events: RunEvent[]): ChatMessage[][] =>
  events.flatMap((e) => (e.kind === 'model' && e.event.kind === 'call-end' && e.event.text ? [e.event.text.prompt as ChatMessage[]] : []));

async function demoPrompts(rolesDir: string): Promise<ChatMessage[][]> {
  const scenario = Scenario.parse(parse(await fs.readFile(path.join(ROOT, 'examples', 'wordfreq.yaml'), 'utf8')));
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sopworks-bench-cache-'));
  const events: RunEvent[] = [];
  try {
    await startRun({
      spec: scenario.spec!,
      project: 'wordfreq',
      projectDir: path.join(dir, 'wordfreq'),
      company: await loadCompany(path.join(ROOT, 'sops'), rolesDir),
      provider: new ScriptedProvider('scripted:demo', scenario, 0),
      llm: { kind: 'scripted', file: 'demo' },
      maxRepairs: 2,
      onEvent: (e) => events.push(e),
    });
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
  return promptsOf(events);
}

async function syntheticPrompts(files: number, rolesDir: string): Promise<ChatMessage[][]> {
  const events: RunEvent[] = [];
  await runSynthetic(syntheticScenario(makeGraph('mix', files), 'mix'), {
    latency: { fixedMs: 0, perTokenMs: 0 },
    concurrency: 4,
    onEvent: (e) => events.push(e),
    rolesDir,
  });
  return promptsOf(events);
}

/** A chat prompt as one token sequence: each message's role, then its content (the chat format's shape). */
const tokensOf = (messages: readonly ChatMessage[]): number[] => encode(messages.map((m) => `<|${m.role}|>\n${m.content}\n`).join(''));

/**
 * The share of prompt tokens a prefix cache could serve: each prompt's longest prefix shared with an
 * earlier one, from `minPrefix` tokens on, in steps of `step` (OpenAI: 1,024 and 128; vLLM's automatic
 * prefix caching: any length, in blocks of 16).
 */
export function prefixCacheShare(
  prompts: readonly ChatMessage[][],
  minPrefix = MIN_PREFIX,
  step = STEP,
): { promptTokens: number; served: number; share: number } {
  const seen: number[][] = [];
  let promptTokens = 0;
  let served = 0;
  for (const prompt of prompts) {
    const tokens = tokensOf(prompt);
    let longest = 0;
    for (const earlier of seen) {
      let n = 0;
      const max = Math.min(earlier.length, tokens.length);
      while (n < max && earlier[n] === tokens[n]) n++;
      longest = Math.max(longest, n);
    }
    promptTokens += tokens.length;
    if (longest >= minPrefix) served += Math.floor(longest / step) * step;
    seen.push(tokens);
  }
  return { promptTokens, served, share: promptTokens === 0 ? 0 : served / promptTokens };
}

/** The demo's prompts through the local engine: prompt tokens read, and seconds, with and without reuse. */
async function localReuse(modelFile: string, prompts: readonly ChatMessage[][], reusePrefix: boolean) {
  const provider = await LocalProvider.open({
    modelFile,
    settings: { contextSize: 8192, threads: null, gpu: 'off', maxStringChars: null, maxItems: null },
    maxOutputTokens: 4,
    maxContinuations: 0,
    temperature: null,
    reusePrefix,
    report: () => {},
  });
  let promptTokens = 0;
  let read = 0;
  const started = Date.now();
  try {
    for (const [index, messages] of prompts.entries()) {
      const completion = await provider.complete({ call: { role: 'bench', action: `call-${index}`, key: null }, messages, jsonSchema: null });
      promptTokens += completion.usage!.promptTokens;
      read += completion.usage!.promptTokens - (completion.usage!.cachedPromptTokens ?? 0);
    }
  } finally {
    await provider.close();
  }
  return { promptTokens, read, seconds: (Date.now() - started) / 1000 };
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'shape-model': { type: 'string', default: path.join(ROOT, '.cache', 'bench-models', 'smollm2-135m-shape.gguf') },
      'timed-calls': { type: 'string', default: '6' },
      // Another roles folder (templates), to compare orderings of the prompts.
      roles: { type: 'string', default: path.join(ROOT, 'roles') },
    },
  });
  const rolesDir = path.resolve(values.roles!);
  const demo = await demoPrompts(rolesDir);
  const forty = await syntheticPrompts(40, rolesDir);
  console.log("Prefix cache of a provider (OpenAI's: prefixes of 1,024 tokens or more, in steps of 128; vLLM's: blocks of 16):");
  for (const [name, prompts] of [
    ['demo (wordfreq)', demo],
    ['40-file project (mix)', forty],
  ] as const) {
    const { promptTokens, served, share } = prefixCacheShare(prompts);
    const blocks = prefixCacheShare(prompts, 16, 16);
    console.log(
      `  ${name.padEnd(22)} ${String(prompts.length).padStart(4)} calls  ${String(promptTokens).padStart(7)} prompt tokens  ` +
        `${String(served).padStart(7)} servable from 1,024 tokens on (${pct(share)}), ${String(blocks.served).padStart(7)} in blocks of 16 (${pct(blocks.share)})`,
    );
  }

  console.log("\nLocal engine, the demo's prompts in order (tokens counted by the engine):");
  const withReuse = await localReuse(TINY, demo, true);
  const without = await localReuse(TINY, demo, false);
  console.log(
    `  prompt tokens read with reuse ${withReuse.read} of ${withReuse.promptTokens}; without reuse ${without.read} (${(without.read / withReuse.read).toFixed(2)}× as many)`,
  );

  const shape = values['shape-model']!;
  const timed = demo.slice(0, Number(values['timed-calls']));
  if (timed.length === 0) return;
  if (await fs.stat(shape).catch(() => null)) {
    const fast = await localReuse(shape, timed, true);
    const slow = await localReuse(shape, timed, false);
    console.log(
      `  on ${path.basename(shape)}, the first ${timed.length} calls: ${fast.read} tokens read in ${fast.seconds.toFixed(1)} s with reuse, ` +
        `${slow.read} in ${slow.seconds.toFixed(1)} s without (${(slow.seconds / fast.seconds).toFixed(2)}× the time); load ${os.loadavg()[0]!.toFixed(1)}`,
    );
  } else {
    console.log(`  (no ${shape}: make it with python3 make-shape-gguf.py <tiny model> smollm2-135m ${shape} to time the reuse)`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
