/**
 * The test commands a Python repository declares: tox (tox.ini, or pyproject's `[tool.tox]`), nox
 * (noxfile.py), hatch, poe and pdm scripts in pyproject.toml — each as its `commands` say, run in the
 * project's environment (runnable.ts) — and, when none does, the runner its configuration implies:
 * pytest when it is set up for it (`[tool.pytest.ini_options]`, `[tool:pytest]`, pytest.ini, a
 * conftest.py, a dependency on it), else unittest with the pattern its test files follow. Pure but for `read`.
 */
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { iniSections } from '../../../../ground/text/index.ts';
import type { DeclaredCommand, ReadFile } from './declared-command.ts';
import { runnable, runsTests } from './runnable.ts';
import { shellWords } from './shell-words.ts';

/** Environments of a tox or nox file that do not run the tests. */
const NOT_TESTS = /lint|docs?|type|mypy|flake|format|style|build|release|publish|clean|coverage[-_]?report|pre-commit|bench/i;

export async function pythonDeclared(at: ReadonlySet<string>, read: ReadFile): Promise<DeclaredCommand[]> {
  const found: DeclaredCommand[] = [];
  const tox = at.has('tox.ini') ? await read('tox.ini') : null;
  if (tox) found.push(...toxCommands(iniSections(tox), 'tox.ini'));
  const pyproject = at.has('pyproject.toml') ? tomlOf(await read('pyproject.toml')) : null;
  if (pyproject) found.push(...pyprojectCommands(pyproject));
  const nox = at.has('noxfile.py') ? await read('noxfile.py') : null;
  if (nox) found.push(...noxCommands(nox));
  return found;
}

/** What runs the tests when nothing declares it: pytest when the repository is set up for it, unittest otherwise. */
export async function pythonImplied(files: readonly string[], tests: readonly string[], read: ReadFile): Promise<DeclaredCommand> {
  const at = new Set(files);
  const setUp = await pytestSetUp(at, read);
  if (setUp) return { argv: ['python3', '-m', 'pytest'], source: `pytest (${setUp})` };
  const python = tests.filter((f) => f.endsWith('.py') && path.posix.basename(f) !== '__init__.py');
  // unittest finds test*.py unless told another pattern; colorama's tests are ansi_test.py.
  const named = python.filter((f) => !/^test.*\.py$/.test(path.posix.basename(f)));
  const pattern = named.length > 0 && named.every((f) => /_test\.py$/.test(f)) ? ['-p', '*_test.py'] : [];
  const tops = new Set(python.map((f) => f.split('/')[0]));
  const [top] = [...tops];
  // A tests/ folder without __init__.py is no package: discovery must start there.
  const start = tops.size === 1 && top && python.every((f) => f.includes('/')) && !at.has(`${top}/__init__.py`) ? ['-s', top, '-t', '.'] : [];
  const argv = ['python3', '-m', 'unittest', ...(pattern.length + start.length > 0 ? ['discover', ...start, ...pattern] : [])];
  return { argv, source: `unittest's discovery of the repository's ${python.length} Python test files` };
}

async function pytestSetUp(at: ReadonlySet<string>, read: ReadFile): Promise<string | null> {
  if ([...at].some((f) => f === 'conftest.py' || f.endsWith('/conftest.py'))) return 'a conftest.py';
  if (at.has('pytest.ini')) return 'pytest.ini';
  const configs: [string, RegExp][] = [
    ['pyproject.toml', /^\s*\[tool\.pytest/m],
    ['setup.cfg', /^\s*\[tool:pytest\]/m],
    ['tox.ini', /^\s*\[pytest\]/m],
  ];
  for (const [file, section] of configs) if (at.has(file) && section.test((await read(file)) ?? '')) return `${file} configures it`;
  for (const file of ['pyproject.toml', 'setup.cfg', 'requirements-dev.txt', 'requirements-test.txt', 'requirements.txt', 'setup.py']) {
    if (at.has(file) && /["'\s=[,]pytest\b|^pytest\b/m.test((await read(file)) ?? '')) return `${file} depends on it`;
  }
  return null;
}

/** tox's test environments' `commands`, tox's substitutions applied; `-` (ignore errors) dropped. */
export function toxCommands(sections: Map<string, Map<string, string>>, where: string): DeclaredCommand[] {
  const envs = [...sections.keys()].filter((name) => name === 'testenv' || (name.startsWith('testenv:') && !NOT_TESTS.test(name)));
  return envs.flatMap((env) =>
    (sections.get(env)!.get('commands') ?? '')
      .split('\n')
      .map((line) => line.replace(/^-\s*/, '').trim())
      .flatMap((line) => {
        const argv = asTestCommand(withoutToxPlaces(shellWords(toxSubstituted(line)) ?? []));
        return argv ? [{ argv, source: `${where} [${env}] commands: ${line}` }] : [];
      }),
  );
}

const toxSubstituted = (line: string): string =>
  line
    .replace(/\{posargs:([^}]*)\}/g, '$1')
    .replace(/\{posargs\}/g, '')
    .replace(/\{envpython\}/g, 'python3')
    .replace(/\{(toxinidir|tox_root)\}/g, '.')
    .replace(/\{envbindir\}\//g, '')
    // The project as tox installed it is the project's own folder here: sopworks runs its sources.
    .replace(/\{(?:env_site_packages_dir|envsitepackagesdir)\}\//g, '')
    .replace(/\{env:[A-Za-z_][A-Za-z0-9_]*:([^{}]*)\}/g, '$1');

/**
 * The words without those that still name a place of tox's own environment (`--basetemp={env_tmp_dir}`,
 * `--cov-report=xml:{envlogdir}/c.xml`): outside tox it names nothing, and the command runs without it —
 * an option whose value it is goes with it.
 */
function withoutToxPlaces(words: readonly string[]): string[] {
  const kept: string[] = [];
  for (const word of words) {
    if (!/\{[a-z_]+(?::[^{}]*)?\}/.test(word)) kept.push(word);
    // A place alone after an option is that option's value (`--basetemp {envtmpdir}`).
    else if (kept.length > 0 && /^--?[\w-]+$/.test(kept.at(-1)!) && /^\{[a-z_]+\}$/.test(word)) kept.pop();
  }
  return kept;
}

function asTestCommand(words: readonly string[]): string[] | null {
  const argv = runnable(words);
  return argv && runsTests(argv) ? argv : null;
}

function tomlOf(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch {
    return null;
  }
}

const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** hatch's, poe's and pdm's `test` scripts, tox's configuration kept in pyproject.toml. */
function pyprojectCommands(toml: Record<string, unknown>): DeclaredCommand[] {
  const tool = record(toml.tool);
  const found: DeclaredCommand[] = [];
  const script = (value: unknown, where: string) => {
    const line = typeof value === 'string' ? value : typeof record(value).cmd === 'string' ? (record(value).cmd as string) : null;
    const lines = Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : line ? [line] : [];
    for (const text of lines) {
      const argv = asTestCommand(shellWords(text.replace(/\{args:([^}]*)\}/g, '$1').replace(/\{args\}/g, '')) ?? []);
      if (argv) found.push({ argv, source: `pyproject.toml ${where}: ${text}` });
    }
  };
  for (const [env, settings] of Object.entries(record(record(tool.hatch).envs))) {
    for (const [name, value] of Object.entries(record(record(settings).scripts)))
      if (/^(test|tests|unit|cov)$/.test(name)) script(value, `[tool.hatch.envs.${env}.scripts] ${name}`);
  }
  for (const [name, value] of Object.entries(record(record(tool.poe).tasks))) if (/^(test|tests)$/.test(name)) script(value, `[tool.poe.tasks] ${name}`);
  for (const [name, value] of Object.entries(record(record(tool.pdm).scripts))) if (/^(test|tests)$/.test(name)) script(value, `[tool.pdm.scripts] ${name}`);
  const tox = record(tool.tox);
  if (typeof tox.legacy_tox_ini === 'string') found.push(...toxCommands(iniSections(tox.legacy_tox_ini), 'pyproject.toml [tool.tox] legacy_tox_ini'));
  const commands = record(tox.env_run_base).commands;
  if (Array.isArray(commands)) {
    for (const command of commands) {
      if (!Array.isArray(command)) continue;
      const words = command.filter((w): w is string => typeof w === 'string' && !/^\{posargs/.test(w)).map(toxSubstituted);
      const argv = asTestCommand(withoutToxPlaces(words));
      if (argv) found.push({ argv, source: `pyproject.toml [tool.tox.env_run_base] commands: ${JSON.stringify(command)}` });
    }
  }
  return found;
}

/** The first `session.run(…)` of each nox session about tests whose words are all string literals (before `*session.posargs`). */
export function noxCommands(text: string): DeclaredCommand[] {
  const found: DeclaredCommand[] = [];
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  lines.forEach((line, index) => {
    const session = /^(\s*)def (\w+)\(\s*session\b/.exec(line);
    if (!session || NOT_TESTS.test(session[2]!) || !/test/i.test(session[2]!)) return;
    const indent = session[1]!.length;
    const body: string[] = [];
    for (const next of lines.slice(index + 1)) {
      if (next.trim() !== '' && next.length - next.trimStart().length <= indent) break;
      body.push(next);
    }
    for (const call of body.join('\n').matchAll(/session\.run\(([^)]*)\)/g)) {
      const words: string[] = [];
      for (const arg of call[1]!.split(',').map((a) => a.trim())) {
        const literal = /^(["'])(.*)\1$/.exec(arg);
        if (!literal) break;
        words.push(literal[2]!);
      }
      const argv = asTestCommand(words);
      if (argv) {
        found.push({ argv, source: `noxfile.py session ${session[2]}: session.run(${call[1]!.trim()})` });
        break;
      }
    }
  });
  return found;
}
