/**
 * The part of a design that concerns one file — what a per-file prompt carries instead of the whole
 * design, so that its size depends on the file and its direct neighbours, not on the project's size:
 * - the project-wide conventions (summary, approach, language, commands), the same for every file;
 * - the file's own row of the file list, and the rows of its direct dependencies;
 * - the lines of the class diagram that belong to the file's classes (their blocks and the relations
 *   that mention them), and the lines of the sequence diagram where they take part, with the blocks
 *   (alt/else, loop, opt, par …) those lines lie in (sequence-excerpt.ts).
 * A class belongs to a file when its name, lower-cased without punctuation, is the file's base name
 * (`src/word-count.js` ↔ `WordCount`), or when the file's purpose names it as a word.
 */
import type { Design } from '../../documents/index.ts';
import { sequenceExcerpt } from './sequence-excerpt.ts';

export interface DesignExcerpt {
  summary: string;
  approach: string;
  language: string;
  testCommand: string[];
  runCommand: string[] | null;
  /** Third-party packages the project declares (the manifest's writer needs them; [] when none). */
  packages: { name: string; range: string; kind: 'runtime' | 'dev' }[];
  file: { path: string; purpose: string; executable: boolean };
  dependencies: { path: string; purpose: string }[];
  classes: string[];
  /** Mermaid text (a valid classDiagram), or '' when no class belongs to the file. */
  classDiagram: string;
  /** Mermaid text (a valid sequenceDiagram), or '' when none of the file's classes takes part. */
  sequenceDiagram: string;
}

const normalise = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '');
const baseName = (file: string): string =>
  file
    .split('/')
    .at(-1)!
    .replace(/\.[^.]*$/, '');

/** Class names declared or related in a mermaid class diagram, in order of appearance. */
export function classNames(classDiagram: string): string[] {
  const names = new Set<string>();
  for (const line of classDiagram.split('\n')) {
    const declared = /^\s*class\s+([A-Za-z_][\w]*)/.exec(line);
    if (declared) names.add(declared[1]!);
    const related =
      /^\s*([A-Za-z_]\w*)\s*(?:"[^"]*"\s*)?(?:<\|--|\*--|o--|-->|--\*|--o|--\|>|\.\.>|\.\.\|>|<\.\.|<\|\.\.|--|\.\.)\s*(?:"[^"]*"\s*)?([A-Za-z_]\w*)/.exec(
        line,
      );
    if (related) names.add(related[1]!).add(related[2]!);
  }
  return [...names];
}

export function classesOfFile(design: Pick<Design, 'classDiagram' | 'files'>, file: string): string[] {
  const purpose = design.files.find((f) => f.path === file)?.purpose ?? '';
  const base = normalise(baseName(file));
  return classNames(design.classDiagram).filter((name) => normalise(name) === base || new RegExp(`\\b${name}\\b`).test(purpose));
}

const mentions = (line: string, classes: readonly string[]): boolean => classes.some((c) => new RegExp(`(^|[^\\w])${c}([^\\w]|$)`).test(line));

function classDiagramExcerpt(diagram: string, classes: readonly string[]): string {
  if (classes.length === 0) return '';
  const lines = diagram.split('\n');
  const kept: string[] = [];
  let inBlock: boolean | null = null; // null: outside a class block; true/false: inside one, kept or not
  for (const line of lines.slice(1)) {
    const trimmed = line.trim();
    if (inBlock !== null) {
      if (inBlock) kept.push(line);
      if (trimmed === '}') inBlock = null;
      continue;
    }
    const declared = /^class\s+([A-Za-z_]\w*)/.exec(trimmed);
    if (declared) {
      const keep = classes.includes(declared[1]!);
      if (keep) kept.push(line);
      if (trimmed.endsWith('{')) inBlock = keep;
      continue;
    }
    if (mentions(trimmed, classes)) kept.push(line);
  }
  return kept.length === 0 ? '' : [lines[0]!, ...kept].join('\n');
}

/** Excerpts made so far, per design: every prompt of a file (write, review, revise) asks for the same one. */
const made = new WeakMap<Design, Map<string, DesignExcerpt>>();

export function designExcerpt(design: Design, file: string, dependsOn: readonly string[]): DesignExcerpt {
  const key = [file, ...dependsOn].join('\0');
  let excerpts = made.get(design);
  if (!excerpts) made.set(design, (excerpts = new Map()));
  let excerpt = excerpts.get(key);
  if (!excerpt) excerpts.set(key, (excerpt = makeDesignExcerpt(design, file, dependsOn)));
  return excerpt;
}

function makeDesignExcerpt(design: Design, file: string, dependsOn: readonly string[]): DesignExcerpt {
  const row = (p: string) => ({ path: p, purpose: design.files.find((f) => f.path === p)?.purpose ?? '(not in the design file list)' });
  const classes = classesOfFile(design, file);
  const executable = design.files.find((f) => f.path === file)?.executable === true;
  return {
    summary: design.summary,
    approach: design.approach,
    language: design.language,
    testCommand: design.testCommand,
    runCommand: design.runCommand,
    packages: design.dependencies ?? [],
    file: { ...row(file), executable },
    dependencies: dependsOn.map(row),
    classes,
    classDiagram: classDiagramExcerpt(design.classDiagram.trim(), classes),
    sequenceDiagram: sequenceExcerpt(design.sequenceDiagram.trim(), classes),
  };
}
