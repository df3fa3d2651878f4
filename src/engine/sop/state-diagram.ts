/**
 * A SOP as a mermaid `stateDiagram-v2`: states, transitions labelled with their event (or the step's
 * outcome, or the guard of an automatic transition), optionally with one state marked (the current or
 * last state of a run). Pure.
 */
import type { SopFile, StateNodeConfig } from '../steps/index.ts';

type Transition = string | { target?: string; guard?: unknown };

const list = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const guardName = (guard: unknown): string | null =>
  guard === undefined ? null : typeof guard === 'string' ? guard : ((guard as { type?: string }).type ?? null);
/** Mermaid state ids: letters, digits, underscores. */
const id = (path: string[]): string => path.join('__').replace(/[^A-Za-z0-9_]/g, '_');
const label = (text: string): string => text.replace(/[:;"]/g, ' ').trim();

export interface StateDiagramOptions {
  /** A state to mark, as a dotted path ("writing" or "review.deciding"). */
  highlight?: string | null;
  /** States a run passed through (dotted paths), marked apart from the highlighted one. */
  visited?: readonly string[];
}

export function sopStateDiagram(sop: SopFile, options: StateDiagramOptions = {}): string {
  const lines = ['stateDiagram-v2', `  [*] --> ${id([sop.initial])}`];
  const edges: string[] = [];
  const finals: string[] = [];

  const describe = (states: Record<string, StateNodeConfig>, parent: string[], indent: string) => {
    for (const [name, state] of Object.entries(states)) {
      const path = [...parent, name];
      const self = id(path);
      lines.push(`${indent}state "${label(name)}" as ${self}`);
      if (state.states) {
        lines.push(`${indent}state ${self} {`);
        if (state.initial) lines.push(`${indent}  [*] --> ${id([...path, state.initial])}`);
        describe(state.states, path, indent + '  ');
        lines.push(`${indent}}`);
      }
      if (state.type === 'final') finals.push(self);
      // XState targets: a sibling ("next"), a child (".child"), or a state by id ("#id").
      const resolve = (target: string) =>
        target.startsWith('#')
          ? id([target.slice(1)])
          : target.startsWith('.')
            ? id([...path, ...target.slice(1).split('.')])
            : id([...parent, ...target.split('.')]);
      const edge = (transition: Transition, event: string) => {
        const target = typeof transition === 'string' ? transition : transition.target;
        if (!target) return;
        const guard = typeof transition === 'string' ? null : guardName(transition.guard);
        const text = [event, guard ? `[${guard}]` : ''].filter(Boolean).join(' ');
        edges.push(`  ${self} --> ${resolve(target)}${text ? ` : ${label(text)}` : ''}`);
      };
      for (const [event, transitions] of Object.entries(state.on ?? {})) list(transitions as Transition | Transition[]).forEach((t) => edge(t, event));
      list(state.always as Transition | Transition[] | undefined).forEach((t) => edge(t, ''));
      for (const invoke of list(state.invoke)) {
        list(invoke.onDone as Transition | Transition[] | undefined).forEach((t) => edge(t, `${invoke.src} done`));
        list(invoke.onError as Transition | Transition[] | undefined).forEach((t) => edge(t, `${invoke.src} failed`));
      }
    }
  };
  describe(sop.states, [], '  ');
  lines.push(...edges, ...finals.map((f) => `  ${f} --> [*]`));
  const visited = (options.visited ?? []).filter((v) => v !== options.highlight);
  if (visited.length > 0) {
    lines.push('  classDef visited fill:#dafbe1,stroke:#1a7f37,stroke-width:2px', `  class ${visited.map((v) => id(v.split('.'))).join(',')} visited`);
  }
  if (options.highlight) {
    lines.push('  classDef current fill:#ffd54f,stroke:#f57f17,stroke-width:3px', `  class ${id(options.highlight.split('.'))} current`);
  }
  return lines.join('\n') + '\n';
}
