/** The demo's replies in the order a one-at-a-time run asks for them, for a fake OpenAI-compatible server to answer with. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { Scenario } from '../../src/capabilities/model/index.ts';
import { sopworks } from './in-process.ts';
import { DEMO } from './paths.ts';
import { tempDir } from './temp-dir.ts';

export async function demoRepliesInOrder(): Promise<string[]> {
  const seed = await tempDir();
  const recording = path.join(seed, 'seed.yaml');
  const made = await sopworks(['run', '--llm', `scripted:${DEMO}`, '--out', seed, '--record', recording, '--concurrency', '1'], { cwd: seed });
  if (made.code !== 0) throw new Error(`the demo's seed run ended ${made.code}: ${made.stdout}${made.stderr}`);
  return Scenario.parse(parse(await fs.readFile(recording, 'utf8'))).replies.map((r) => r.reply!);
}

/** The demo's spec, for a run against a server that answers with its replies. */
export const demoSpec = async (): Promise<string> => Scenario.parse(parse(await fs.readFile(DEMO, 'utf8'))).spec!;
