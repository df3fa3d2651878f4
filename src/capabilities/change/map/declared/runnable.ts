/**
 * A declared command as sopworks runs it: the program a repository's file names through its own
 * environment (`{envpython}`, `$(virtualenv)/bin/python`, `python3.12`) is the one of the project's
 * environment here (`python3`, found in the project's `.venv` first), and a coverage wrapper is left out
 * (`coverage run -m pytest` runs `python3 -m pytest`), as are pytest-cov's options (`--cov pkg`). Which test suite a command runs, by its program:
 * JavaScript runners, Python's, Go's, Rust's. Pure.
 */
import path from 'node:path';
import { JS_RUNNERS } from '../../../../host/runners/index.ts';

export type Suite = 'javascript' | 'python' | 'go' | 'rust' | 'java' | 'other';

const PYTHON_RUNNERS = new Set(['pytest', 'py.test', 'nose2', 'trial', 'green', 'ward']);

/** The words as sopworks runs them; null when they do not name a program it can run as written. */
export function runnable(words: readonly string[]): string[] | null {
  let argv = [...words];
  if (argv.length === 0 || /[{}]/.test(argv[0]!)) return null;
  const program = path.posix.basename(argv[0]!);
  // A program inside a virtual environment (…/bin/pytest) is the project's own: its name finds it.
  if (argv[0]!.includes('/') && path.posix.basename(path.posix.dirname(argv[0]!)) === 'bin') argv[0] = program;
  if (/^python(\d+(\.\d+)?)?$/.test(program)) argv[0] = 'python3';
  if (argv[0] === 'coverage' && argv[1] === 'run') {
    const module = argv.indexOf('-m');
    argv = module === -1 ? ['python3', ...argv.slice(2).filter((w) => !w.startsWith('-'))] : ['python3', ...argv.slice(module)];
  }
  if (isPytest(argv)) argv = withoutCoverageOptions(argv);
  return argv[0]!.includes('/') && !argv[0]!.startsWith('./') ? null : argv;
}

const isPytest = (argv: readonly string[]): boolean =>
  ['pytest', 'py.test'].includes(argv[0]!) || (argv[0] === 'python3' && argv[1] === '-m' && argv[2] === 'pytest');

/** pytest-cov's options that take a value (`--cov` takes the next word unless it is an option). */
const COVERAGE_VALUE = new Set(['--cov-report', '--cov-config', '--cov-fail-under', '--cov-context']);

/**
 * A pytest command without pytest-cov's options: they measure, they do not test, and without the plugin
 * (one an index here does not serve) pytest refuses them (`unrecognized arguments: --cov`) — schedule's
 * `py.test test_schedule.py schedule -v --cov schedule --cov-report term-missing`.
 */
function withoutCoverageOptions(argv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (!/^--(no-)?cov(-|=|$)/.test(word)) kept.push(word);
    else if (!word.includes('=') && (COVERAGE_VALUE.has(word) || (word === '--cov' && argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('-')))) i++;
  }
  return kept;
}

/** The suite a command runs, by its program (and `-m` module, `--test` flag); 'other' when it does not say. */
export function suiteOf(argv: readonly string[]): Suite {
  const [program = '', ...rest] = argv;
  const name = path.posix.basename(program);
  if (name === 'python3' && rest[0] === '-m') return PYTHON_RUNNERS.has(rest[1] ?? '') || rest[1] === 'unittest' ? 'python' : 'other';
  if (PYTHON_RUNNERS.has(name)) return 'python';
  if (JS_RUNNERS.has(name) || ((name === 'node' || name === 'tsx') && rest.includes('--test'))) return 'javascript';
  if (['npm', 'pnpm', 'yarn', 'npx', 'bun', 'deno'].includes(name)) return 'javascript';
  if (name === 'go' && rest[0] === 'test') return 'go';
  if (name === 'cargo' && rest[0] === 'test') return 'rust';
  if (['mvn', 'gradle', './gradlew'].includes(program)) return 'java';
  return 'other';
}

/** Whether a command runs a test runner itself (`npx vitest run`, `pnpm jest`, `python -m pytest`), not a linter, a build or a script. */
export function runsTests(argv: readonly string[]): boolean {
  const inner = withoutPackageRunner(argv);
  return inner !== null && suiteOf(inner) !== 'other' && !/^(npm|pnpm|yarn|bun|npx|deno)$/.test(inner[0] ?? '');
}

/**
 * The command a package manager's runner of installed binaries runs (`npx vitest run`, `pnpm exec
 * vitest`, `pnpm vitest`, `yarn vitest`, `npm exec -- vitest` → `vitest run`); the words themselves when
 * no such runner starts them; null for a package manager's own subcommand (`pnpm lint` names a script).
 */
export function withoutPackageRunner(argv: readonly string[]): string[] | null {
  const [program = '', ...rest] = argv;
  const skipFlags = (words: string[]) => {
    const at = words.findIndex((w) => !w.startsWith('-'));
    return at === -1 ? [] : words.slice(at);
  };
  if (program === 'npx') return skipFlags(rest);
  if ((program === 'npm' || program === 'pnpm' || program === 'yarn') && rest[0] === 'exec') return skipFlags(rest.slice(1).filter((w) => w !== '--'));
  if (program === 'pnpm' || program === 'yarn') return JS_RUNNERS.has(rest[0] ?? '') ? rest : null;
  return [...argv];
}
