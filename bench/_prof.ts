import { Session } from 'node:inspector/promises';
import fs from 'node:fs/promises';
import { makeGraph, width } from './graphs.ts';
import { syntheticScenario } from './scenario.ts';
import { runSynthetic } from './synthetic-run.ts';
const latency = { fixedMs: 200, perTokenMs: 0.8 };
await runSynthetic(syntheticScenario(makeGraph('mix', 5), 'mix'), { latency, concurrency: 4 });
await runSynthetic(syntheticScenario(makeGraph('mix', 10), 'mix'), { latency, concurrency: 4 });
const session = new Session(); session.connect();
await session.post('Profiler.enable'); await session.post('Profiler.setSamplingInterval', { interval: 200 }); await session.post('Profiler.start');
for (const files of [5, 10, 20, 5, 10, 20]) {
  const graph = makeGraph('mix', files);
  const { result, provider, started, ended } = await runSynthetic(syntheticScenario(graph, 'mix'), { latency, concurrency: Math.max(4, width(graph)) });
  const calls = result.usage.total().calls;
  console.log(files, result.outcome, ((ended - started - provider.busyMs()) / calls).toFixed(2));
}
const { profile } = await session.post('Profiler.stop');
await fs.mkdir('/tmp/prof2', { recursive: true });
await fs.writeFile('/tmp/prof2/warm.cpuprofile', JSON.stringify(profile));
