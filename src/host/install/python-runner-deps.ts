/**
 * What a Python project's test runner of choice installs before it runs the tests — tox's test
 * environments (`deps`, `extras`, in tox.ini or pyproject's `[tool.tox] legacy_tox_ini`) and nox's test
 * sessions (`session.install(…)` with literal arguments) — read as data, so that the command the map
 * takes from them (`python -m pytest`, in place of tox itself) finds what it needs: a requirement by
 * name, a requirements file of the project (`-r requirements-test.txt`, `{toxinidir}/` dropped), the
 * project's own extras (`.[test]`, `-e .[tests]`). Substitutions other than the project's folder, and
 * options, are left out. Pure.
 */
import { iniSections } from '../../ground/text/index.ts';
import type { NamedRequirement } from './plan-types.ts';

/** Environments and sessions that do not run the tests (the same words as the map's: python-declared.ts). */
const NOT_TESTS = /lint|docs?|type|mypy|flake|format|style|build|release|publish|clean|coverage[-_]?report|pre-commit|bench/i;

export interface RunnerDeps {
  /** The project's extras the runner installs it with. */
  extras: string[];
  /** Requirements files of the project it installs from (`-r`). */
  files: string[];
  named: NamedRequirement[];
}

export function runnerDeps(tox: { text: string; file: string } | null, noxfile: string | null): RunnerDeps {
  const found: RunnerDeps = { extras: [], files: [], named: [] };
  if (tox) {
    const sections = iniSections(tox.text);
    const envs = [...sections.keys()].filter((name) => name === 'testenv' || (name.startsWith('testenv:') && !NOT_TESTS.test(name)));
    for (const env of envs) {
      const settings = sections.get(env)!;
      found.extras.push(...words(settings.get('extras') ?? ''));
      for (const line of (settings.get('deps') ?? '').split('\n')) read(line.replace(/\{(toxinidir|tox_root)\}\//g, '').trim(), tox.file, found);
    }
  }
  if (noxfile) for (const args of noxInstalls(noxfile)) readNox(args, found);
  return { extras: [...new Set(found.extras)], files: [...new Set(found.files)], named: found.named };
}

const words = (text: string): string[] => text.split(/[\s,]+/).filter(Boolean);

/** One `deps` line: a requirement, `-r file`, or the project with its extras. */
function read(line: string, file: string, found: RunnerDeps): void {
  if (line === '' || line.startsWith('#') || line.includes('{')) return;
  const include = /^(?:-r\s*|--requirement[=\s]+)(\S+)$/.exec(line);
  if (include) return void found.files.push(include[1]!.replace(/^\.\//, ''));
  const self = /^(?:(?:-e|--editable)(?:\s+|=))?\.\/?(?:\[([^\]]*)\])?$/.exec(line);
  if (self) return void found.extras.push(...words(self[1] ?? ''));
  if (line.startsWith('-')) return;
  found.named.push({ requirement: line, from: file });
}

function readNox(args: string[], found: RunnerDeps): void {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if ((arg === '-r' || arg === '--requirement') && args[i + 1]) read(`-r ${args[++i]}`, 'noxfile.py', found);
    else if ((arg === '-e' || arg === '--editable') && args[i + 1]) read(`-e ${args[++i]}`, 'noxfile.py', found);
    else read(arg, 'noxfile.py', found);
  }
}

/** The literal arguments of each `session.install(…)` in nox's test sessions (up to the first that is not a string literal). */
function noxInstalls(text: string): string[][] {
  const installs: string[][] = [];
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  lines.forEach((line, index) => {
    const session = /^(\s*)def (\w+)\(\s*session\b/.exec(line);
    if (!session || NOT_TESTS.test(session[2]!) || !/test/i.test(session[2]!)) return;
    const body: string[] = [];
    for (const next of lines.slice(index + 1)) {
      if (next.trim() !== '' && next.length - next.trimStart().length <= session[1]!.length) break;
      body.push(next);
    }
    for (const call of body.join('\n').matchAll(/session\.install\(([^)]*)\)/g)) {
      const args: string[] = [];
      for (const arg of call[1]!.split(',').map((a) => a.trim())) {
        const literal = /^(["'])(.*)\1$/.exec(arg);
        if (!literal) break;
        args.push(literal[2]!);
      }
      installs.push(args);
    }
  });
  return installs;
}
