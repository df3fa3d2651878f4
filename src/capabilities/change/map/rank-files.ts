/**
 * Ranks a repository's files and definitions for a change request, as aider's repository map does: a
 * graph with an edge from each file to every file defining a name it references (weighted by how often,
 * how specific the name is, and whether the request names it), ranked with PageRank (graphology) and
 * personalised by the request — the walk restarts at the files the request's words point to. A
 * definition's rank is the share of rank the files referencing it send it. Pure: tags in, ranks out.
 */
import { createRequire } from 'node:module';
import { DirectedGraph } from 'graphology';
import type PageRank from 'graphology-metrics/centrality/pagerank.js';
import { nameBoost, type RankedFile, type TermWeights } from './relevance.ts';

// CommonJS whose `module.exports` is the function: its types say `export default`, which ESM sees as a namespace.
const pagerank = createRequire(import.meta.url)('graphology-metrics/centrality/pagerank') as typeof PageRank.default;

export interface Ranks {
  files: Map<string, number>;
  /** By `${path}\0${name}`. */
  definitions: Map<string, number>;
}

const DAMPING = 0.85;
/** A name defined in more files than this (String, Error, init) says nothing about which one is meant: no edges. */
const MAX_DEFINERS = 24;
const REQUEST = '\0request';
/** The walk restarts at no more files than this. */
const MAX_RESTARTS = 64;

interface Reference {
  from: number;
  name: string;
  weight: number;
  targets: number[];
}

export function rankFiles(files: readonly RankedFile[], weights: TermWeights): Ranks {
  const references = referencesBetween(files, weights);
  const pairs = new Map<number, number>();
  const out = new Float64Array(files.length);
  for (const reference of references) {
    for (const target of reference.targets) {
      const key = reference.from * files.length + target;
      pairs.set(key, (pairs.get(key) ?? 0) + reference.weight);
      out[reference.from]! += reference.weight;
    }
  }
  const graph = new DirectedGraph<Record<string, never>, { weight: number }>({ allowSelfLoops: true });
  files.forEach((file) => graph.addNode(file.path));
  // Keyed by the pair's number: graphology need not make up a key for each of tens of thousands of edges.
  for (const [key, weight] of pairs)
    graph.addDirectedEdgeWithKey(key, files[Math.floor(key / files.length)]!.path, files[key % files.length]!.path, { weight });

  const global = pairs.size > 0 ? pagerank(graph, { getEdgeWeight: 'weight', alpha: DAMPING, maxIterations: 500 }) : null;
  const restarts = restartsOf(files);
  // The same graph, the request added to it (no copy: it is not used again).
  const personal = restarts ? personalised(graph, files, out, restarts) : null;
  const scores = new Map<string, number>();
  for (const file of files) {
    // The files the request is about, then what the walk from them reaches, then what the whole repository leans on.
    const score = (restarts?.get(file.path) ?? 0) + (personal?.[file.path] ?? 0) + 0.1 * (global?.[file.path] ?? 1 / files.length);
    scores.set(file.path, score * (file.test ? 0.5 : 1));
  }
  // What each definition receives: every referencing file's score, shared out by the weight of its references.
  const definitions = new Map<string, number>();
  for (const reference of references) {
    const share = ((scores.get(files[reference.from]!.path) ?? 0) * reference.weight) / out[reference.from]!;
    for (const target of reference.targets) {
      const key = `${files[target]!.path}\0${reference.name}`;
      definitions.set(key, (definitions.get(key) ?? 0) + share);
    }
  }
  return { files: scores, definitions };
}

/** Each file's references to names other files define, weighted (aider's weights). */
function referencesBetween(files: readonly RankedFile[], weights: TermWeights): Reference[] {
  const definers = new Map<string, number[]>();
  files.forEach((file, index) => {
    for (const name of new Set(file.tags.definitions.filter((d) => d.kind !== 'exports').map((d) => d.name))) {
      const list = definers.get(name);
      if (list) list.push(index);
      else definers.set(name, [index]);
    }
  });
  const specificity = new Map<string, number>();
  const references: Reference[] = [];
  files.forEach((file, from) => {
    for (const [name, count] of file.tags.references) {
      const defined = definers.get(name);
      if (!defined || defined.length > MAX_DEFINERS) continue;
      const targets = defined.filter((target) => target !== from);
      if (targets.length === 0) continue;
      let weight = specificity.get(name);
      if (weight === undefined) {
        weight = nameWeight(name, defined.length, weights);
        specificity.set(name, weight);
      }
      references.push({ from, name, weight: weight * Math.sqrt(count) * (file.test ? 0.5 : 1), targets });
    }
  });
  return references;
}

/** How much a reference by this name says about the file defining it. */
function nameWeight(name: string, definedIn: number, weights: TermWeights): number {
  let weight = nameBoost(name, weights);
  if (name.length >= 8 && /[a-z][A-Z]|[a-z0-9]_[a-z0-9]|-/.test(name)) weight *= 10;
  if (name.startsWith('_')) weight *= 0.1;
  if (definedIn > 5) weight *= 0.1;
  return weight;
}

/**
 * Where the personalised walk restarts, and how often (summing to 1): the files the request points at most —
 * a thousand files sharing one common word with it would otherwise outweigh the few it is about. Null when
 * it points at none.
 */
function restartsOf(files: readonly RankedFile[]): Map<string, number> | null {
  const top = Math.max(0, ...files.map((f) => f.relevance));
  if (top === 0) return null;
  const relevant = files
    .filter((f) => f.relevance >= top / 4)
    .sort((a, b) => b.relevance - a.relevance || (a.path < b.path ? -1 : 1))
    .slice(0, MAX_RESTARTS);
  const total = relevant.reduce((sum, f) => sum + f.relevance ** 2, 0);
  return new Map(relevant.map((f) => [f.path, f.relevance ** 2 / total]));
}

/**
 * PageRank that restarts at the files the request points to, computed with graphology's PageRank on a
 * graph with one more node, the request: every file leaves to it with the restart probability (a file
 * that references nothing, always) and it leads to each file in proportion to the file's relevance —
 * the undamped walk on that graph is the personalised one. Null when the request points at no file.
 * Adds the request to `graph` itself.
 */
function personalised(
  graph: DirectedGraph<Record<string, never>, { weight: number }>,
  files: readonly RankedFile[],
  out: Float64Array,
  restarts: ReadonlyMap<string, number>,
) {
  graph.addNode(REQUEST);
  files.forEach((file, index) => {
    const weight = out[index]! > 0 ? (out[index]! * (1 - DAMPING)) / DAMPING : 1;
    graph.addDirectedEdge(file.path, REQUEST, { weight });
  });
  for (const [file, weight] of restarts) graph.addDirectedEdge(REQUEST, file, { weight });
  // A little weight on staying keeps the walk from alternating between the request and the files forever.
  graph.addDirectedEdge(REQUEST, REQUEST, { weight: 0.05 });
  const ranks = pagerank(graph, { getEdgeWeight: 'weight', alpha: 1, maxIterations: 1000, tolerance: 1e-9 });
  delete ranks[REQUEST];
  return ranks;
}
