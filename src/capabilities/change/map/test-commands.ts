/**
 * How a repository's tests are run, read from its files before anything is asked of a model: the test
 * script of package.json, `go test ./...` for Go test files, `cargo test` for Cargo.toml, Maven or
 * Gradle for Java, pytest or unittest for Python, a Makefile's `test` target. Each command names the
 * program it needs, and what to install when this machine lacks it (checkToolchains in
 * ../check-toolchains.ts refuses the change then, before its first model call).
 */
import { z } from 'zod';
import { isTestPath, testLanguageOf } from './test-layout.ts';

export interface TestCommand {
  argv: string[];
  /** Where it comes from, as the Architect is told ("package.json scripts.test: mocha"). */
  source: string;
  /** The programs it needs on this machine, and how to get each. */
  needs: { program: string; install: string }[];
}

export type ReadFile = (file: string) => Promise<string | null>;

const INSTALL: Record<string, string> = {
  npm: 'Node.js with npm (Debian: apt-get install nodejs npm)',
  go: 'Go (Debian: apt-get install golang-go; or https://go.dev/dl/)',
  cargo: "Rust's cargo (Debian: apt-get install cargo; or rustup)",
  mvn: 'Maven and a JDK (Debian: apt-get install maven default-jdk)',
  gradle: 'Gradle and a JDK (Debian: apt-get install gradle default-jdk)',
  java: 'a JDK (Debian: apt-get install default-jdk)',
  python3: 'Python 3 (Debian: apt-get install python3)',
  make: 'make (Debian: apt-get install make)',
};

const need = (program: string) => ({ program, install: INSTALL[program] ?? program });

const PackageJson = z.object({ scripts: z.record(z.string(), z.string()).optional() }).passthrough();
const NO_TEST_SCRIPT = /no test specified/;

/** The test commands a repository declares or implies, most specific first; empty when it has no tests to run. */
export async function testCommands(files: readonly string[], read: ReadFile): Promise<TestCommand[]> {
  const at = new Set(files);
  const tested = new Set(files.filter(isTestPath).map(testLanguageOf));
  const commands: TestCommand[] = [];
  const script = await npmTestScript(at, read);
  if (script) commands.push({ argv: ['npm', 'test'], source: `package.json scripts.test: ${script}`, needs: [need('npm')] });
  if (tested.has('go') || (at.has('go.mod') && files.some((f) => f.endsWith('_test.go')))) {
    commands.push({ argv: ['go', 'test', './...'], source: 'Go test files (*_test.go)', needs: [need('go')] });
  }
  if (at.has('Cargo.toml')) commands.push({ argv: ['cargo', 'test'], source: 'Cargo.toml', needs: [need('cargo')] });
  if (at.has('pom.xml')) commands.push({ argv: ['mvn', '-q', 'test'], source: 'pom.xml', needs: [need('mvn')] });
  else if (at.has('build.gradle') || at.has('build.gradle.kts')) {
    const wrapper = at.has('gradlew');
    commands.push({
      argv: wrapper ? ['./gradlew', 'test'] : ['gradle', 'test'],
      source: wrapper ? 'gradlew' : 'build.gradle',
      needs: [need(wrapper ? 'java' : 'gradle')],
    });
  }
  if (tested.has('python')) commands.push(await pythonTests(at, read));
  if (commands.length === 0 && at.has('Makefile') && /^test\s*:/m.test((await read('Makefile')) ?? '')) {
    commands.push({ argv: ['make', 'test'], source: 'Makefile target test', needs: [need('make')] });
  }
  return commands;
}

async function npmTestScript(at: ReadonlySet<string>, read: ReadFile): Promise<string | null> {
  if (!at.has('package.json')) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse((await read('package.json')) ?? '');
  } catch {
    return null;
  }
  const test = PackageJson.safeParse(parsed).data?.scripts?.test;
  return test && !NO_TEST_SCRIPT.test(test) ? test : null;
}

/** pytest when the repository is set up for it (its configuration, conftest.py, or a dependency on it); unittest otherwise. */
async function pythonTests(at: ReadonlySet<string>, read: ReadFile): Promise<TestCommand> {
  const configs = ['pytest.ini', 'pyproject.toml', 'setup.cfg', 'tox.ini', 'requirements-dev.txt', 'requirements.txt'];
  let pytest = [...at].some((f) => f === 'conftest.py' || f.endsWith('/conftest.py'));
  for (const file of configs) {
    if (pytest || !at.has(file)) continue;
    pytest = /\[tool\.pytest|\[tool:pytest\]|\[pytest\]|^\s*["']?pytest\b/m.test((await read(file)) ?? '');
  }
  return pytest
    ? { argv: ['python3', '-m', 'pytest'], source: 'pytest (the repository is set up for it)', needs: [need('python3')] }
    : { argv: ['python3', '-m', 'unittest'], source: 'Python test files (unittest)', needs: [need('python3')] };
}
