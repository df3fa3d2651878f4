/**
 * The lines of a mermaid sequence diagram where some classes take part: their messages, notes and
 * activations, the declarations of the participants those lines name, and every block they lie in kept
 * whole in its structure — `alt … else … end`, `loop`, `opt`, `par … and`, `critical … option`, `break`,
 * `rect`, `box` — each branch's line shown even when none of its messages is kept, so an excerpt never
 * puts the returns of three branches one after the other as if they all happened.
 */

type Item = { line: string } | Block;
interface Block {
  open: string;
  /** The first branch has no line of its own (the opener is it); each later one starts with its `else`/`and`/`option` line. */
  branches: { line: string | null; items: Item[] }[];
  end: string | null;
}

const OPENER = /^\s*(loop|alt|opt|par|par_over|critical|break|rect|box)\b/;
const BRANCH = /^\s*(else|and|option)\b/;
const END = /^\s*end\s*$/;
const MESSAGE = /^\s*([^\s:;-][^:;]*?)\s*(?:-{1,2}>>|-{1,2}>|-{1,2}x|-{1,2}\))[+-]?\s*([^:;]+?)\s*(?::|$)/;
const PARTICIPANT = /^\s*(?:participant|actor)\s+(\S+)(?:\s+as\s+(.+?))?\s*$/;
const NOTE = /^\s*note\s+(?:over|left of|right of)\s+([^:]+):/i;
const ACTIVATION = /^\s*(?:activate|deactivate)\s+(\S+)/;

export function sequenceExcerpt(diagram: string, classes: readonly string[]): string {
  if (classes.length === 0) return '';
  const [header, ...rest] = diagram.split('\n');
  const declared = participants(rest);
  // A participant is one of the classes by its name or by the alias it is declared under.
  const ours = new Set(classes.flatMap((c) => [c, ...[...declared].filter(([, d]) => d.label === c).map(([id]) => id)]));
  const named = new Set<string>();
  const kept = keep(parse(rest), (line) => {
    const names = namesIn(line);
    if (!names.some((n) => ours.has(n))) return false;
    for (const n of names) named.add(n);
    return true;
  });
  if (kept.length === 0) return '';
  const declarations = rest.filter((line) => {
    const id = PARTICIPANT.exec(line)?.[1];
    return id !== undefined && named.has(id);
  });
  return [header!, ...declarations, ...kept].join('\n');
}

function participants(lines: readonly string[]): Map<string, { label: string }> {
  const found = new Map<string, { label: string }>();
  for (const line of lines) {
    const match = PARTICIPANT.exec(line);
    if (match) found.set(match[1]!, { label: match[2]?.trim() ?? match[1]! });
  }
  return found;
}

/** The participants a line names: a message's two ends, a note's, an activation's. */
function namesIn(line: string): string[] {
  const message = MESSAGE.exec(line);
  if (message) return [message[1]!.trim(), message[2]!.trim()];
  const note = NOTE.exec(line);
  if (note) return note[1]!.split(',').map((n) => n.trim());
  const activation = ACTIVATION.exec(line);
  return activation ? [activation[1]!] : [];
}

function parse(lines: readonly string[]): Item[] {
  const root: Item[] = [];
  const open: Block[] = [];
  const target = (): Item[] => (open.length === 0 ? root : open.at(-1)!.branches.at(-1)!.items);
  for (const line of lines) {
    if (OPENER.test(line)) {
      const block: Block = { open: line, branches: [{ line: null, items: [] }], end: null };
      target().push(block);
      open.push(block);
    } else if (BRANCH.test(line) && open.length > 0) {
      open.at(-1)!.branches.push({ line, items: [] });
    } else if (END.test(line) && open.length > 0) {
      open.pop()!.end = line;
    } else {
      target().push({ line });
    }
  }
  return root;
}

/** The lines kept of the items: those `wanted`, and every block holding one, with all its branch lines and its end. */
function keep(items: readonly Item[], wanted: (line: string) => boolean): string[] {
  const out: string[] = [];
  for (const item of items) {
    if ('line' in item) {
      if (wanted(item.line)) out.push(item.line);
      continue;
    }
    const branches = item.branches.map((b) => ({ line: b.line, kept: keep(b.items, wanted) }));
    if (branches.every((b) => b.kept.length === 0)) continue;
    out.push(item.open);
    for (const branch of branches) out.push(...(branch.line === null ? [] : [branch.line]), ...branch.kept);
    if (item.end !== null) out.push(item.end);
  }
  return out;
}
