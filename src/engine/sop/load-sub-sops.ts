/**
 * The per-file SOPs a role's `eachFile` steps name (e.g. sops/engineer-file.yaml), read from the folder
 * of the SOP that names them and checked like any SOP, plus what only a per-file machine must satisfy:
 * it ends in a final state and never waits for a board message (none is delivered to it), and it does
 * not run `eachFile` itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { YamlSource } from '../../ground/files/index.ts';
import { SopFile, type Vocabulary } from '../steps/index.ts';
import { resolveSopReferences } from './build-machine.ts';
import { checkMachine } from './check-machine.ts';
import { checkNames } from './check-names.ts';
import { type Diagnostic, sopError } from './diagnostic.ts';
import { type StepEntry, statesOf, stepsNamed, stepsOf } from './sop-walk.ts';
import { loadYamlChecked, locatorOf } from './yaml-diagnostics.ts';

export interface LoadedSubSop {
  name: string;
  file: string;
  sop: SopFile;
  source: YamlSource;
}

/** The steps that run a per-file SOP (`eachFile`), each with the SOP's file name (the step's `subSop` parameter). */
export function subSopSteps(sop: SopFile, vocabulary: Vocabulary): { step: StepEntry; param: string; name: string }[] {
  return stepsOf(sop, vocabulary).flatMap((step) => {
    const param = vocabulary.steps[step.src]?.names?.subSop;
    const name = param ? step.params?.[param] : undefined;
    return param && typeof name === 'string' ? [{ step, param, name }] : [];
  });
}

export async function loadSubSops(
  sop: SopFile,
  sopFile: string,
  where: (at: (string | number)[]) => string,
  vocabulary: Vocabulary,
): Promise<{ subSops: LoadedSubSop[]; diagnostics: Diagnostic[]; files: number }> {
  const diagnostics: Diagnostic[] = [];
  const subSops: LoadedSubSop[] = [];
  let files = 0;
  const seen = new Set<string>();
  for (const { step, param, name } of subSopSteps(sop, vocabulary)) {
    if (seen.has(name)) continue;
    seen.add(name);
    const file = path.join(path.dirname(sopFile), name);
    if (!fs.existsSync(file)) {
      diagnostics.push(
        sopError(
          where([...step.at, 'input', param]),
          `the per-file SOP ${file} does not exist; write it next to ${path.basename(sopFile)} (see sops/engineer-file.yaml), or name another file`,
        ),
      );
      continue;
    }
    const loaded = await loadYamlChecked(file, SopFile);
    files++;
    diagnostics.push(...loaded.diagnostics);
    if (!loaded.value || !loaded.source) continue;
    const source = loaded.source;
    const subWhere = locatorOf(source);
    const resolved = resolveSopReferences(loaded.value, source, vocabulary);
    diagnostics.push(...resolved.problems.map((p) => sopError(p.where, p.message)));
    diagnostics.push(...checkMachine(resolved.sop, subWhere, vocabulary), ...checkNames(resolved.sop, subWhere, vocabulary, { perFile: true }));
    for (const state of statesOf(resolved.sop)) {
      for (const event of Object.keys(state.node.on ?? {})) {
        diagnostics.push(
          sopError(
            subWhere.key([...state.at, 'on', event]),
            `a per-file SOP is never sent board messages, so on: ${event} would wait for good; end the file's work in a state with type: final instead`,
          ),
        );
      }
    }
    if (!statesOf(resolved.sop).some((s) => s.node.type === 'final')) {
      diagnostics.push(sopError(subWhere.key(['states']), `a per-file SOP must end: add a state with type: final where a file's work is done`));
    }
    for (const nested of subSopSteps(resolved.sop, vocabulary)) {
      diagnostics.push(
        sopError(subWhere([...nested.step.at, 'src']), `a per-file SOP cannot run ${nested.step.src} itself; keep the per-file steps in one SOP`),
      );
    }
    for (const publish of stepsNamed<{ type: string }>(resolved.sop, vocabulary, 'publish')) {
      if (publish.params && !(publish.params.type in vocabulary.messages)) {
        diagnostics.push(
          sopError(
            subWhere([...publish.at, 'input', 'type']),
            `unknown message type "${publish.params.type}"; use one of ${Object.keys(vocabulary.messages).join(', ')}`,
          ),
        );
      }
    }
    subSops.push({ name, file, sop: resolved.sop, source });
  }
  return { subSops, diagnostics, files };
}
