/**
 * How a repository's tests are run, read from its files before anything is asked of a model: first what
 * it declares — package.json scripts (and each workspace package's: declared/workspace-declared.ts), tox.ini, noxfile.py, pyproject.toml's hatch/poe/pdm/tox settings,
 * a Makefile's `test` target, a justfile's `test` recipe (declared/) — then what its files imply: `go
 * test ./...` for Go test files, `cargo test` for Cargo.toml, Maven or Gradle for Java, pytest or
 * unittest for Python. Each command says where it came from and which programs it needs, and what to
 * install when this machine lacks them (checkToolchains in ../check-toolchains.ts refuses the change
 * when no command of a suite can run here, before its first model call).
 */
import path from 'node:path';
import type { DeclaredCommand, ReadFile } from './declared/declared-command.ts';
import { justCommands, makeCommands } from './declared/make-declared.ts';
import { packageCommands, scriptsOf } from './declared/package-declared.ts';
import { pythonDeclared, pythonImplied } from './declared/python-declared.ts';
import { type Suite, suiteOf, withoutPackageRunner } from './declared/runnable.ts';
import { workspaceCommands } from './declared/workspace-declared.ts';
import { isTestPath, testLanguageOf } from './test-layout.ts';

export type { ReadFile } from './declared/declared-command.ts';

export interface TestCommand {
  argv: string[];
  /** Where it comes from, as the Architect is told ("tox.ini [testenv] commands: python -m unittest …"). */
  source: string;
  /** The tests it runs, by language: a suite is refused only when none of its commands can run here. */
  suite: Suite;
  /** The programs it needs on this machine, and how to get each. */
  needs: { program: string; install: string }[];
}

const INSTALL: Record<string, string> = {
  npm: 'Node.js with npm (Debian: apt-get install nodejs npm)',
  node: 'Node.js (Debian: apt-get install nodejs)',
  go: 'Go (Debian: apt-get install golang-go; or https://go.dev/dl/)',
  cargo: "Rust's cargo (Debian: apt-get install cargo; or rustup)",
  mvn: 'Maven and a JDK (Debian: apt-get install maven default-jdk)',
  gradle: 'Gradle and a JDK (Debian: apt-get install gradle default-jdk)',
  java: 'a JDK (Debian: apt-get install default-jdk)',
  python3: 'Python 3 (Debian: apt-get install python3)',
  make: 'make (Debian: apt-get install make)',
  just: 'just (https://just.systems)',
  pnpm: 'pnpm (corepack enable pnpm, or npm install -g pnpm)',
  yarn: 'yarn (corepack enable yarn, or npm install -g yarn)',
};

/** The programs of this machine a command needs: a runner of installed binaries needs npm's Node, a project's own `./x` nothing. */
function needsOf(argv: readonly string[]): TestCommand['needs'] {
  const program = argv[0] ?? '';
  if (program.startsWith('./')) return [];
  // A runner of installed binaries (npx, pnpm exec, yarn vitest) runs the project's own: Node with npm is all it needs.
  const throughRunner = argv.length > 1 && withoutPackageRunner(argv)?.[0] !== program;
  const name = program === 'npx' || throughRunner ? 'npm' : path.posix.basename(program);
  if (name === 'pytest' || name === 'py.test') return [{ program: 'python3', install: INSTALL.python3! }];
  return [{ program: name, install: INSTALL[name] ?? name }];
}

/** The test commands a repository declares or implies, most specific first; empty when it has no tests to run. */
export async function testCommands(files: readonly string[], read: ReadFile): Promise<TestCommand[]> {
  const at = new Set(files);
  const tests = files.filter(isTestPath);
  const tested = new Set(tests.map(testLanguageOf));
  const declared: DeclaredCommand[] = [];
  const scripts = at.has('package.json') ? scriptsOf(await read('package.json')) : null;
  if (scripts) declared.push(...packageCommands(scripts));
  declared.push(...(await workspaceCommands(files, read)));
  const python = await pythonDeclared(at, read);
  declared.push(...python);
  if (at.has('Makefile')) declared.push(...makeCommands((await read('Makefile')) ?? ''));
  if (at.has('justfile')) declared.push(...justCommands((await read('justfile')) ?? ''));
  if (tested.has('go') || (at.has('go.mod') && files.some((f) => f.endsWith('_test.go'))))
    declared.push({ argv: ['go', 'test', './...'], source: at.has('go.mod') ? 'go.mod: Go test files (*_test.go)' : 'Go test files (*_test.go); no go.mod' });
  if (at.has('Cargo.toml')) declared.push({ argv: ['cargo', 'test'], source: 'Cargo.toml' });
  if (at.has('pom.xml')) declared.push({ argv: ['mvn', '-q', 'test'], source: 'pom.xml' });
  else if (at.has('build.gradle') || at.has('build.gradle.kts')) {
    declared.push(at.has('gradlew') ? { argv: ['./gradlew', 'test'], source: 'gradlew' } : { argv: ['gradle', 'test'], source: 'build.gradle' });
  }
  const pythonDeclares = declared.some((c) => suiteOf(c.argv) === 'python');
  if (tested.has('python') && !pythonDeclares) declared.push(await pythonImplied(files, tests, read));
  return merged(declared).map((command) => ({
    ...command,
    suite: command.argv[0] === 'make' ? suiteOfMake(command, declared) : suiteOf(command.argv),
    needs: [...needsOf(command.argv), ...(command.needs ?? []).flatMap((program) => needsOf([program]))].filter(
      (need, i, all) => all.findIndex((other) => other.program === need.program) === i,
    ),
  }));
}

/** One entry per command: the same words read from two files say both places. */
function merged(commands: readonly DeclaredCommand[]): DeclaredCommand[] {
  const byWords = new Map<string, DeclaredCommand>();
  for (const command of commands) {
    const key = JSON.stringify(command.argv);
    const seen = byWords.get(key);
    byWords.set(key, seen ? { ...seen, source: `${seen.source}; also ${command.source}` } : { ...command });
  }
  return [...byWords.values()];
}

/** `make test` runs the suite its recipe runs (its other commands say which), else a suite of its own. */
function suiteOfMake(command: DeclaredCommand, all: readonly DeclaredCommand[]): Suite {
  const recipe = all.find((c) => c.argv[0] !== 'make' && c.source.startsWith(`Makefile target ${command.argv[1]}:`));
  return recipe ? suiteOf(recipe.argv) : 'other';
}
