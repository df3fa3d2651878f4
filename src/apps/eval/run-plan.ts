/**
 * Which runs a suite makes: every spec once, or `--repeat n` times; with `--chaos`, each repeat under its
 * own seed (the first `--seed`, then one more each) and, to compare with, one clean run of the spec.
 * A spec's clean run — or its only run — is `<out>/<name>`, as a suite without repeats always had it;
 * repeat i is `<out>/repeat-<i>/<name>`, so every run of a spec has the same project name.
 */
import path from 'node:path';
import type { ChaosSettings } from '../../capabilities/model/index.ts';
import type { SpecDefinition, Suite } from './suite-file.ts';

export interface RunsAsked {
  /** How many runs of each spec to measure, at least 1. */
  repeat: number;
  /** The chaos of the first repeat (its seed goes up by one per repeat); null: clean runs only. */
  chaos: ChaosSettings | null;
}

export interface PlannedRun {
  definition: SpecDefinition;
  /** 0: the clean run that chaos runs are compared with; 1..n: the repeats. */
  repeat: number;
  /** The chaos of this run, or null for a clean one. */
  chaos: ChaosSettings | null;
  /** The folder the project goes in, and the project itself. */
  out: string;
  projectDir: string;
  /** How the progress lines and logs name it: `roman`, `roman #2`. */
  label: string;
}

export function planRuns(suite: Suite, asked: RunsAsked, out: string): PlannedRun[] {
  const repeats = Math.max(1, asked.repeat);
  const plain = repeats === 1 && asked.chaos === null;
  return suite.specs.flatMap((definition) => {
    // Only a scenario can be spoiled on purpose; a spec on a real model is repeated clean.
    const chaos = definition.scenario ? asked.chaos : null;
    const runs: PlannedRun[] = [];
    const add = (repeat: number, chaos: ChaosSettings | null, folder: string) =>
      runs.push({
        definition,
        repeat,
        chaos,
        out: folder,
        projectDir: path.join(folder, definition.name),
        label: repeat === 0 || plain ? definition.name : `${definition.name} #${repeat}`,
      });
    if (plain || (repeats === 1 && !chaos)) add(1, null, out);
    else {
      if (chaos) add(0, null, out);
      for (let i = 1; i <= repeats; i++) {
        add(i, chaos ? { rate: chaos.rate, seed: chaos.seed + i - 1 } : null, chaos || i > 1 ? path.join(out, `repeat-${i}`) : out);
      }
    }
    return runs;
  });
}

/** The run whose result stands for the spec in the per-spec table and the aggregates: the clean one. */
export const isReference = (run: PlannedRun, runs: readonly PlannedRun[]): boolean =>
  run.repeat === Math.min(...runs.filter((r) => r.definition.name === run.definition.name).map((r) => r.repeat));
