/**
 * What a role does in a state of its SOP, in a few words, for the viewer's "now working on" line:
 * the step the state invokes with its main parameter ("ask write_prd", "eachFile engineer-file.yaml",
 * "publish PRD"), or what an idle state waits for. Pure: read from the SOP file itself, so it is true
 * of any SOP, the shipped ones or a user's.
 */
import type { SopFile, StateNodeConfig } from '../../engine/steps/index.ts';

/** The parameters that say what a step is about, in the order they are looked for. */
const MAIN_PARAMS = ['action', 'sop', 'type', 'gate', 'outcome'];

function nodeAt(sop: SopFile, dotted: string): StateNodeConfig | null {
  let states: Record<string, StateNodeConfig> | undefined = sop.states;
  let node: StateNodeConfig | null = null;
  for (const name of dotted.split('.')) {
    node = states?.[name] ?? null;
    if (!node) return null;
    states = node.states;
  }
  return node;
}

export function describeStep(sop: SopFile, dotted: string): string | null {
  const node = nodeAt(sop, dotted);
  if (!node) return null;
  if (node.description) return node.description;
  const invoke = Array.isArray(node.invoke) ? node.invoke[0] : node.invoke;
  if (invoke) {
    const input = (invoke.input ?? {}) as Record<string, unknown>;
    const main = MAIN_PARAMS.map((key) => input[key]).find((value) => typeof value === 'string');
    return main ? `${invoke.src} ${main}` : invoke.src;
  }
  if (node.type === 'final') return 'finished';
  const waits = Object.keys(node.on ?? {});
  return waits.length ? `waiting for ${waits.join(' or ')}` : null;
}
