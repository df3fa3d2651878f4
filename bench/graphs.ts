/**
 * Synthetic task graphs for the benchmark, and what can be known of them without running anything:
 * their width (largest set of files no two of which depend on each other, so the most that can be
 * written at once) and their critical path under given per-file durations. Files are named
 * src/m0.js … in an order that is already topological.
 */
export const SHAPES = ['chain', 'fan', 'diamond', 'mix'] as const;
export type Shape = (typeof SHAPES)[number];

/** dependsOn[i]: the indices of the files file i depends on (all smaller than i). */
export type Graph = number[][];

export function makeGraph(shape: Shape, files: number): Graph {
  if (files < 3) throw new Error(`a ${shape} graph needs at least 3 files, not ${files}`);
  const graph: Graph = [];
  for (let i = 0; i < files; i++) {
    switch (shape) {
      case 'chain': // each file uses the one before it
        graph.push(i === 0 ? [] : [i - 1]);
        break;
      case 'fan': // one core module, every other file uses it
        graph.push(i === 0 ? [] : [0]);
        break;
      case 'diamond': // a core, a wide middle that uses it, one entry point that uses the whole middle
        graph.push(i === 0 ? [] : i < files - 1 ? [0] : range(1, files - 1));
        break;
      case 'mix':
        graph.push(mixDependencies(i, files));
        break;
    }
  }
  return graph;
}

/**
 * A realistic layering: a few foundation modules (config, utilities), a model layer on them, a service
 * layer using two or three models, and entry points using a few services. Deterministic.
 */
function mixDependencies(i: number, files: number): number[] {
  const foundation = Math.max(2, Math.round(files * 0.15));
  const models = Math.max(1, Math.round(files * 0.35));
  const services = Math.max(1, Math.round(files * 0.35));
  const modelsEnd = foundation + models;
  const servicesEnd = Math.min(files - 1, modelsEnd + services);
  if (i < foundation) return i === 0 ? [] : [0];
  if (i < modelsEnd) return unique([0, foundation > 1 ? 1 + (i % (foundation - 1)) : 0]);
  if (i < servicesEnd) return unique([foundation + (i % models), foundation + ((i * 7 + 3) % models), (i * 3) % foundation]);
  const serviceCount = servicesEnd - modelsEnd;
  return serviceCount > 0 ? unique([modelsEnd + (i % serviceCount), modelsEnd + ((i * 5 + 1) % serviceCount), 0]) : [0];
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from }, (_, k) => from + k);
const unique = (list: number[]): number[] => [...new Set(list)].sort((a, b) => a - b);

/** The maximum antichain, by Dilworth's theorem: files minus a maximum matching of the reachability relation. */
export function width(graph: Graph): number {
  const n = graph.length;
  const reaches: Set<number>[] = graph.map(() => new Set());
  for (let i = 0; i < n; i++)
    for (const d of graph[i]!) {
      reaches[d]!.add(i);
    }
  // transitive closure, in topological order from the end
  for (let i = n - 1; i >= 0; i--) for (const j of [...reaches[i]!]) for (const k of reaches[j]!) reaches[i]!.add(k);
  const matchOf = new Array<number>(n).fill(-1);
  const tryMatch = (u: number, seen: boolean[]): boolean => {
    for (const v of reaches[u]!) {
      if (seen[v]) continue;
      seen[v] = true;
      if (matchOf[v] === -1 || tryMatch(matchOf[v]!, seen)) {
        matchOf[v] = u;
        return true;
      }
    }
    return false;
  };
  let matching = 0;
  for (let u = 0; u < n; u++) if (tryMatch(u, new Array<boolean>(n).fill(false))) matching++;
  return n - matching;
}

/** The longest path when file i takes durations[i] and starts once all it depends on are done. */
export function criticalPath(graph: Graph, durations: readonly number[]): number {
  const finish: number[] = [];
  graph.forEach((deps, i) => finish.push(Math.max(0, ...deps.map((d) => finish[d]!)) + durations[i]!));
  return Math.max(...finish);
}
