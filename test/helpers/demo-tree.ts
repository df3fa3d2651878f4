/**
 * The tree an uninterrupted `npm run demo` gives: what a demo stopped and resumed must end with. Made once
 * per process, from the demo as it is today, so a change to the demo's replies or SOPs moves it too.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { sopworks } from './in-process.ts';
import { DEMO } from './paths.ts';
import { tempDir } from './temp-dir.ts';

let made: Promise<string> | undefined;

export function demoTree(): Promise<string> {
  made ??= (async () => {
    const out = await tempDir('sopworks-demo-tree-');
    const run = await sopworks(['run', '--llm', `scripted:${DEMO}`, '--out', out], { cwd: out });
    if (run.code !== 0) throw new Error(`the demo did not end done (exit ${run.code}):\n${run.stdout}\n${run.stderr}`);
    return execFileSync('git', ['rev-parse', 'HEAD^{tree}'], { cwd: path.join(out, 'wordfreq'), encoding: 'utf8' }).trim();
  })();
  return made;
}
