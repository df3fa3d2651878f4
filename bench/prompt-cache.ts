/**
 * `npm run bench:cache`: how much of a run's prompts each provider's prompt cache could serve, and what
 * the prompts then cost (issue 42; issue 29 before it).
 *
 *   npm run bench:cache -- RUN... [--repo DIR] [--json FILE]
 *   npm run bench:cache -- [--local] [--shape-model FILE] [--timed-calls 6] [--roles DIR]
 *
 * With RUNs (a project folder, a change run's work tree, an exchanges.jsonl, or a scenario replayed with
 * this version's prompts: run-exchanges.ts — a change's on a repository made of DIR's files, e.g.
 * `test/fixtures/recorded/redact-change.yaml --repo test/fixtures/repos/pinojs-redact`): each run's requests as they were sent — in order, at their
 * times — through each provider's rules (cache-rules.ts): the prompt tokens read from the cache, those
 * written, the cacheable share and the effective input tokens (uncached + cached × the provider's factor,
 * + written × its write factor), beside what the endpoint itself reported as cached; and the floor: what
 * the same prompts would cost if every line an earlier request carried were read from the cache, wherever
 * it stands — no layout of them costs less. Tokens are counted with the bundled tokenizer (OpenAI's o200k).
 *
 * Without: the same for the offline demo and the 40-file synthetic project (`npm run bench`'s "mix"); with
 * `--local`, also the demo's prompts through the local engine (node-llama-cpp) on one context sequence,
 * reusing what a call shares with the call before, against reading every prompt whole — the tokens as the
 * engine counts them (the test model's llama tokenizer), the time on a real-shaped model of random weights
 * (make-shape-gguf.py) for the first calls.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';
import type { ChatMessage } from '../src/capabilities/model/provider.ts';
import { LocalProvider } from '../src/capabilities/model/providers/local/local-provider.ts';
import { ScriptedProvider } from '../src/capabilities/model/providers/scripted.ts';
import { Scenario } from '../src/capabilities/model/scenario.ts';
import { loadCompany } from '../src/company/load-company.ts';
import type { RunEvent } from '../src/company/run-events.ts';
import { startRun } from '../src/company/start-run.ts';
import { cacheRequests, cacheRequestsOf, type SentRequest } from './cache-requests.ts';
import { CACHE_RULES, type CacheFigures, type CacheRequest, cacheFigures } from './cache-rules.ts';
import { makeGraph } from './graphs.ts';
import { runExchanges } from './run-exchanges.ts';
import { syntheticScenario } from './scenario.ts';
import { runSynthetic } from './synthetic-run.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TINY = path.join(ROOT, 'test', 'fixtures', 'models', 'llama-2-tiny-random.gguf');

export interface RunCacheFigures {
  run: string;
  outcome: string | null;
  /** Requests sent (re-asks included). */
  requests: number;
  /** The prompt tokens as the endpoint reported them, and of those the cached ones it reported. */
  reported: { promptTokens: number; cachedPromptTokens: number };
  rules: CacheFigures[];
}

/** Each rule's figures over a run's requests. */
export function runCacheFigures(
  run: string,
  outcome: string | null,
  requests: readonly CacheRequest[],
  reported: RunCacheFigures['reported'],
): RunCacheFigures {
  return { run, outcome, requests: requests.length, reported, rules: CACHE_RULES.map((rule) => cacheFigures(rule, requests)) };
}

async function figuresOfRun(arg: string, repo: string | null): Promise<RunCacheFigures> {
  const { name, outcome, records } = await runExchanges(arg, repo);
  const reported = {
    promptTokens: records.reduce((n, r) => n + r.usage.promptTokens, 0),
    cachedPromptTokens: records.reduce((n, r) => n + (r.usage.cachedPromptTokens ?? 0), 0),
  };
  return runCacheFigures(name, outcome, cacheRequests(records), reported);
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
/** Effective input tokens against the prompt tokens read whole: "−26.6%", "+24.4%", "0.0%". */
const versus = (effective: number, none: number): string =>
  none === 0 || effective === none ? '0.0%' : `${effective < none ? '−' : '+'}${pct(Math.abs(1 - effective / none))}`;

export function cacheTable(figures: RunCacheFigures): string {
  const none = figures.rules[0]?.promptTokens ?? 0;
  const head =
    `${figures.run} (${figures.outcome ?? 'no outcome'}): ${figures.requests} requests, ${none} prompt tokens counted here ` +
    `(${figures.reported.promptTokens} as reported, ${figures.reported.cachedPromptTokens} of them cached)`;
  return [
    head,
    '',
    '| cache | read | written | cacheable share | effective input tokens | vs no cache | floor (any layout) | vs no cache |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...figures.rules.map(
      (r) =>
        `| ${r.label} | ${r.read} | ${r.written} | ${pct(r.share)} | ${r.effective} | ${versus(r.effective, none)} | ${r.floor} | ${versus(r.floor, none)} |`,
    ),
  ].join('\n');
}

/** The requests of a run replayed in this process, from its events (their order stands for their times). */
function requestsOfEvents(events: readonly RunEvent[]): CacheRequest[] {
  const sent: SentRequest[] = events.flatMap((e, index) =>
    e.kind === 'model' && e.event.kind === 'call-end' && e.event.text
      ? [{ role: e.event.call.role, messages: e.event.text.prompt, reply: e.event.text.reply, sentAt: index, doneAt: index + 0.5 }]
      : [],
  );
  return cacheRequestsOf(sent);
}

async function demoEvents(rolesDir: string): Promise<RunEvent[]> {
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
  return events;
}

async function syntheticEvents(files: number, rolesDir: string): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  await runSynthetic(syntheticScenario(makeGraph('mix', files), 'mix'), {
    latency: { fixedMs: 0, perTokenMs: 0 },
    concurrency: 4,
    onEvent: (e) => events.push(e),
    rolesDir,
  });
  return events;
}

const promptsOf = (events: readonly RunEvent[]): ChatMessage[][] =>
  events.flatMap((e) => (e.kind === 'model' && e.event.kind === 'call-end' && e.event.text ? [e.event.text.prompt as ChatMessage[]] : []));

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

async function localEngine(demo: readonly ChatMessage[][], shape: string, timedCalls: number): Promise<void> {
  console.log("\nLocal engine, the demo's prompts in order (tokens counted by the engine):");
  const withReuse = await localReuse(TINY, demo, true);
  const without = await localReuse(TINY, demo, false);
  console.log(
    `  prompt tokens read with reuse ${withReuse.read} of ${withReuse.promptTokens}; without reuse ${without.read} (${(without.read / withReuse.read).toFixed(2)}× as many)`,
  );
  const timed = demo.slice(0, timedCalls);
  if (timed.length === 0) return;
  if (!(await fs.stat(shape).catch(() => null))) {
    console.log(`  (no ${shape}: make it with python3 make-shape-gguf.py <tiny model> smollm2-135m ${shape} to time the reuse)`);
    return;
  }
  const fast = await localReuse(shape, timed, true);
  const slow = await localReuse(shape, timed, false);
  console.log(
    `  on ${path.basename(shape)}, the first ${timed.length} calls: ${fast.read} tokens read in ${fast.seconds.toFixed(1)} s with reuse, ` +
      `${slow.read} in ${slow.seconds.toFixed(1)} s without (${(slow.seconds / fast.seconds).toFixed(2)}× the time); load ${os.loadavg()[0]!.toFixed(1)}`,
  );
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      json: { type: 'string' },
      // The files a change's scenario is replayed on (made a repository of one commit).
      repo: { type: 'string' },
      local: { type: 'boolean', default: false },
      'shape-model': { type: 'string', default: path.join(ROOT, '.cache', 'bench-models', 'smollm2-135m-shape.gguf') },
      'timed-calls': { type: 'string', default: '6' },
      // Another roles folder (templates), to compare layouts of the prompts on the demo and the synthetic project.
      roles: { type: 'string', default: path.join(ROOT, 'roles') },
    },
  });
  const figures: RunCacheFigures[] = [];
  if (positionals.length > 0) {
    for (const arg of positionals) figures.push(await figuresOfRun(arg, values.repo ?? null));
  } else {
    const rolesDir = path.resolve(values.roles!);
    const demo = await demoEvents(rolesDir);
    const reportedOf = () => ({ promptTokens: 0, cachedPromptTokens: 0 });
    figures.push(runCacheFigures('demo (wordfreq)', 'done', requestsOfEvents(demo), reportedOf()));
    figures.push(runCacheFigures('40-file project (mix)', 'done', requestsOfEvents(await syntheticEvents(40, rolesDir)), reportedOf()));
    if (values.local) await localEngine(promptsOf(demo), values['shape-model']!, Number(values['timed-calls']));
  }
  process.stdout.write(`${figures.map(cacheTable).join('\n\n')}\n`);
  if (values.json) await fs.writeFile(values.json, `${JSON.stringify(figures, null, 2)}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
