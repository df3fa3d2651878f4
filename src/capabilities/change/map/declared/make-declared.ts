/**
 * The test commands of a Makefile's `test` target and a justfile's `test` recipe: each recipe line that
 * runs a test runner, with the file's simple variables expanded (`$(python)` is the venv's python the
 * Makefile sets, which runnable.ts turns into the project's `python3`) — and `make test` itself, which
 * runs the target as its author meant, prerequisites and all. Pure.
 */
import type { DeclaredCommand } from './declared-command.ts';
import { runnable, runsTests } from './runnable.ts';
import { commandChain } from './shell-words.ts';

const TEST_TARGETS = ['test', 'tests', 'check'];

export function makeCommands(text: string): DeclaredCommand[] {
  const lines = text.replace(/\r\n/g, '\n').replace(/\\\n/g, ' ').split('\n');
  const variables = new Map<string, string>();
  for (const line of lines) {
    const assignment = /^([A-Za-z_][\w.-]*)\s*(?::{1,3}=|\?=|=)\s*(.*)$/.exec(line);
    if (assignment && !line.startsWith('\t')) variables.set(assignment[1]!, assignment[2]!.replace(/\s+#.*$/, '').trim());
  }
  for (const target of TEST_TARGETS) {
    const at = lines.findIndex((line) => new RegExp(`^${target}\\s*:(?!=)`).test(line));
    if (at === -1) continue;
    const recipe = recipeOf(lines, at, (line) => line.startsWith('\t'));
    const found = recipe.flatMap((line) => testsIn(expand(line.replace(/^[@-]+/, ''), variables), `Makefile target ${target}: ${line}`));
    // `make test` needs what its recipe runs, besides make.
    const needs = [...new Set(found.map((f) => f.argv[0]!).filter((program) => !program.startsWith('./')))];
    return [...found, { argv: ['make', target], source: `Makefile target ${target}${recipe.length > 0 ? `: ${recipe.join('; ')}` : ''}`, needs }];
  }
  return [];
}

export function justCommands(text: string): DeclaredCommand[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const variables = new Map<string, string>();
  for (const line of lines) {
    const assignment = /^([A-Za-z_][\w-]*)\s*:=\s*(["']?)(.*)\2\s*$/.exec(line);
    if (assignment) variables.set(assignment[1]!, assignment[3]!);
  }
  const at = lines.findIndex((line) => /^(test|tests)(\s+[^:]*)?:/.test(line));
  if (at === -1) return [];
  const name = /^\w+/.exec(lines[at]!)![0];
  const recipe = recipeOf(lines, at, (line) => /^\s+\S/.test(line)).map((line) => line.trim());
  return recipe.flatMap((line) => {
    const text = line.replace(/^[@-]+/, '').replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, variable: string) => variables.get(variable) ?? whole);
    return testsIn(text, `justfile recipe ${name}: ${line}`);
  });
}

function recipeOf(lines: readonly string[], at: number, inRecipe: (line: string) => boolean): string[] {
  const recipe: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    if (!inRecipe(line)) break;
    recipe.push(line.trim());
  }
  return recipe;
}

/** `$(name)` and `${name}` from the file's own assignments, a few levels deep; others are left as they are. */
function expand(line: string, variables: ReadonlyMap<string, string>): string {
  let text = line;
  for (let depth = 0; depth < 5; depth++) {
    const next = text.replace(/\$[({]([A-Za-z_][\w.-]*)[)}]/g, (whole, name: string) => variables.get(name) ?? whole);
    if (next === text) break;
    text = next;
  }
  return text;
}

function testsIn(line: string, source: string): DeclaredCommand[] {
  for (const words of commandChain(line) ?? []) {
    const argv = runnable(words);
    if (argv && runsTests(argv)) return [{ argv, source }];
  }
  return [];
}
