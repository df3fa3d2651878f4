/**
 * What a Python project declares for its install and its tests, in every place projects keep it:
 * requirements.txt; pyproject.toml's `[project].dependencies`, its test extras
 * (`[project.optional-dependencies] test = […]`, what `pip install -e .[test]` adds), its PEP 735
 * `[dependency-groups]` and uv's `[tool.uv] dev-dependencies`; a test requirements file
 * (requirements-dev.txt, requirements-test.txt, test-requirements.txt, requirements/test.txt…); what
 * tox's and nox's test environments install (python-runner-deps.ts). For
 * extras, groups and files, those named for tests are taken, and the development ones only when there
 * are none and they name a test tool (pytest, mock, hypothesis…): they often carry release tools,
 * linters and doc builders alone.
 *
 * The project itself — `-e .`, `.[test]` in a requirements file, or a src layout (`src/<package>/`) —
 * is never built (its build backend is its code, run outside the tests): its declared dependencies and
 * the extras named are installed, and its source folder is put on the environment's path
 * (python-install.ts writes the `.pth`), which is what an editable install gives the tests.
 * uv.lock's versions pin the direct requirements it locks. Pure but for `read` and the layout's folders.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { z } from 'zod';
import { ManifestProblem, type NamedRequirement, type PlanReader } from './plan-types.ts';
import { runnerDeps } from './python-runner-deps.ts';
import { declaredRequirements, logicalLines, selfExtras } from './python-sources.ts';

const TEST = /^(test|tests|testing)$/;
const DEV = /^(dev|devel|develop|development)$/;
/** What tests use: a development list is taken only when it names one (colorama's requirements-dev.txt is twine and build). */
const TEST_TOOLS = /^(pytest|nose2?|mock|hypothesis|coverage|responses|freezegun|testfixtures|parameterized|pyfakefs|time-machine|syrupy)([-_.[<>=!~ ;]|$)/i;
const namesTestTool = (requirements: readonly string[]) => requirements.some((r) => TEST_TOOLS.test(r.trim()));
const TEST_FILES = [
  'requirements-test.txt',
  'requirements_test.txt',
  'requirements-tests.txt',
  'test-requirements.txt',
  'requirements/test.txt',
  'requirements/tests.txt',
];
const DEV_FILES = ['requirements-dev.txt', 'requirements_dev.txt', 'dev-requirements.txt', 'requirements/dev.txt'];

const Groups = z.record(z.string(), z.array(z.union([z.string(), z.object({ 'include-group': z.string() }).passthrough()])));
const PyProject = z
  .object({
    project: z
      .object({ dependencies: z.array(z.string()).optional(), 'optional-dependencies': z.record(z.string(), z.array(z.string())).optional() })
      .passthrough()
      .optional(),
    'dependency-groups': Groups.optional(),
    tool: z
      .object({
        uv: z
          .object({ 'dev-dependencies': z.array(z.string()).optional() })
          .passthrough()
          .optional(),
      })
      .passthrough()
      .optional(),
  })
  .passthrough();
type PyProject = z.infer<typeof PyProject>;

export interface PythonRequirements {
  /** Requirements files pip reads itself (`-r`), checked line by line. */
  files: string[];
  /** Requirements passed to pip one by one. */
  named: NamedRequirement[];
  /** Files whose lines name the project itself (read for their other requirements, never passed to pip): checked too. */
  selfNaming: string[];
  /** Folders of the project to put on the environment's path (a src layout's `src`). */
  roots: string[];
  /** The texts read, for the install's fingerprint. */
  texts: (string | null)[];
  /** What was found, as a person reads it (for the report). */
  notes: string[];
}

/** The project's requirements; throws ManifestProblem for a pyproject.toml that cannot be read. */
export async function pythonRequirements(projectDir: string, read: PlanReader): Promise<PythonRequirements> {
  const requirementsTxt = await read('requirements.txt');
  const pyprojectText = await read('pyproject.toml');
  const pyproject = pyprojectText === null ? null : parsePyproject(pyprojectText);
  const found: PythonRequirements = { files: [], named: [], selfNaming: [], roots: [], texts: [requirementsTxt, pyprojectText], notes: [] };
  const fromPyproject = (requirements: readonly string[]) => found.named.push(...requirements.map((requirement) => ({ requirement, from: 'pyproject.toml' })));
  const extrasTaken = new Set<string>();
  const takeExtras = (names: readonly string[]) => {
    for (const name of names.filter((n) => !extrasTaken.has(n))) {
      extrasTaken.add(name);
      const extra = pyproject?.project?.['optional-dependencies']?.[name];
      for (const requirement of extra ?? []) {
        // `mypkg[test]` in mypkg's own `dev` extra: its extras are taken instead.
        if (selfExtra(requirement, pyproject))
          takeExtras(
            (/\[([^\]]*)\]/.exec(requirement)?.[1] ?? '')
              .split(',')
              .map((e) => e.trim())
              .filter(Boolean),
          );
        else fromPyproject([requirement]);
      }
    }
  };

  fromPyproject(pyproject?.project?.dependencies ?? []);
  const extras = chosen(pyproject?.project?.['optional-dependencies'] ?? {});
  takeExtras(extras);
  const groups = chosen(pyproject?.['dependency-groups'] ?? {}, true);
  for (const group of groups) fromPyproject(groupRequirements(pyproject?.['dependency-groups'] ?? {}, group, new Set()));
  const uvDev = pyproject?.tool?.uv?.['dev-dependencies'] ?? [];
  fromPyproject(uvDev);

  // A requirements file pip reads itself, unless a line of it (or of a file it includes) names the project: pip would build it.
  const addFile = (file: string) => {
    const self = selfExtras(projectDir, file);
    if (self === null) return found.files.push(file);
    found.selfNaming.push(file);
    takeExtras(self);
    found.named.push(...declaredRequirements(projectDir, file).map((requirement) => ({ requirement, from: file })));
  };
  if (requirementsTxt !== null && logicalLines(requirementsTxt).length > 0) addFile('requirements.txt');
  // What tox's or nox's test environments install: the command the map takes from them needs it.
  const toxText = await read('tox.ini');
  const legacyTox = (pyproject?.tool as { tox?: { legacy_tox_ini?: unknown } } | undefined)?.tox?.legacy_tox_ini;
  const noxText = await read('noxfile.py');
  found.texts.push(toxText, noxText);
  const tox = toxText !== null ? { text: toxText, file: 'tox.ini' } : typeof legacyTox === 'string' ? { text: legacyTox, file: 'pyproject.toml' } : null;
  const runner = runnerDeps(tox, noxText);
  takeExtras(runner.extras);
  found.named.push(...runner.named);
  for (const file of runner.files) {
    if (!found.files.includes(file) && !found.selfNaming.includes(file) && (await read(file)) !== null) addFile(file);
  }
  let testFile: string | null = null;
  for (const file of [...TEST_FILES, ...DEV_FILES]) {
    const text = await read(file);
    found.texts.push(text);
    if (text === null || testFile !== null) continue;
    if (DEV_FILES.includes(file) && !namesTestTool(declaredRequirements(projectDir, file))) continue;
    testFile = file;
    addFile(file);
  }

  found.roots = srcLayout(projectDir, pyprojectText !== null || (await read('setup.py')) !== null || (await read('setup.cfg')) !== null);
  const uvLock = await read('uv.lock');
  found.texts.push(uvLock, JSON.stringify(found.roots));
  if (uvLock !== null) found.named = pinned(found.named, uvLock);
  const fromRunner =
    runner.named.length + runner.files.length + runner.extras.length > 0
      ? tox?.file === 'tox.ini'
        ? 'tox.ini'
        : tox
          ? 'pyproject.toml [tool.tox]'
          : 'noxfile.py'
      : null;
  found.notes = notesOf(found, { extras: [...extrasTaken], groups, uvDev: uvDev.length > 0, testFile, uvLock: uvLock !== null, runner: fromRunner });
  return found;
}

/** The extras or groups named for tests; else the development ones that name a test tool (any, for uv's groups: `uv run` syncs `dev`). */
function chosen(lists: Readonly<Record<string, readonly unknown[]>>, devAlways = false): string[] {
  const names = Object.keys(lists);
  const tests = names.filter((n) => TEST.test(n));
  if (tests.length > 0) return tests;
  return names.filter((n) => DEV.test(n) && (devAlways || namesTestTool((lists[n] ?? []).filter((r): r is string => typeof r === 'string'))));
}

/** An extra that names the project itself (`mypkg[test]` inside mypkg's own `dev` extra): its extras are taken instead. */
function selfExtra(requirement: string, pyproject: PyProject | null): boolean {
  const name = (pyproject?.project as { name?: unknown } | undefined)?.name;
  if (typeof name !== 'string') return false;
  const canon = (n: string) => n.replace(/[-_.]+/g, '-').toLowerCase();
  return canon(/^[A-Za-z0-9._-]+/.exec(requirement.trim())?.[0] ?? '') === canon(name);
}

function groupRequirements(groups: z.infer<typeof Groups>, group: string, seen: Set<string>): string[] {
  if (seen.has(group)) return [];
  seen.add(group);
  return (groups[group] ?? []).flatMap((entry) => (typeof entry === 'string' ? [entry] : groupRequirements(groups, entry['include-group'], seen)));
}

/** `src/` when the project's packages live there (`src/<package>/__init__.py`, or a module `src/<name>.py` beside a manifest). */
function srcLayout(projectDir: string, hasManifest: boolean): string[] {
  const src = path.join(projectDir, 'src');
  if (!fs.lstatSync(src, { throwIfNoEntry: false })?.isDirectory()) return [];
  const entries = fs.readdirSync(src, { withFileTypes: true });
  const isPackage = entries.some((e) => e.isDirectory() && fs.lstatSync(path.join(src, e.name, '__init__.py'), { throwIfNoEntry: false })?.isFile());
  const isModule = hasManifest && entries.some((e) => e.isFile() && e.name.endsWith('.py'));
  return isPackage || isModule ? ['src'] : [];
}

/** Each requirement uv.lock locks, pinned to its version there (its markers kept). */
function pinned(named: NamedRequirement[], uvLock: string): NamedRequirement[] {
  const locked = new Map<string, string>();
  try {
    const lock = z
      .object({ package: z.array(z.object({ name: z.string(), version: z.string().optional() }).passthrough()).optional() })
      .passthrough()
      .parse(parseToml(uvLock));
    for (const entry of lock.package ?? []) if (entry.version) locked.set(entry.name.replace(/[-_.]+/g, '-').toLowerCase(), entry.version);
  } catch {
    return named;
  }
  return named.flatMap((entry) => {
    const name = /^[A-Za-z0-9._-]+/.exec(entry.requirement.trim())?.[0];
    const version = name ? locked.get(name.replace(/[-_.]+/g, '-').toLowerCase()) : undefined;
    const marker = entry.requirement.includes(';') ? entry.requirement.slice(entry.requirement.indexOf(';')) : '';
    return version ? [entry, { requirement: `${name}==${version}${marker ? ` ${marker}` : ''}`, from: 'uv.lock' }] : [entry];
  });
}

interface Took {
  extras: string[];
  groups: string[];
  uvDev: boolean;
  testFile: string | null;
  uvLock: boolean;
  /** The file whose test environments' deps were taken (tox.ini, noxfile.py), or null. */
  runner: string | null;
}

function notesOf(found: PythonRequirements, took: Took): string[] {
  return [
    took.runner ? `what the test environments of ${took.runner} install (deps, extras) installed too, the runner itself not run` : null,
    took.extras.length > 0 ? `the test extras of pyproject.toml installed too: ${took.extras.join(', ')}` : null,
    took.groups.length > 0 ? `the dependency groups of pyproject.toml installed too: ${took.groups.join(', ')}` : null,
    took.uvDev ? "[tool.uv] dev-dependencies installed too (with pip: uv's environment is not made)" : null,
    took.testFile ? `the test requirements of ${took.testFile} installed too` : null,
    found.selfNaming.length > 0 ? `${found.selfNaming.join(', ')} names the project itself: its dependencies installed, the project not built` : null,
    found.roots.length > 0
      ? `${found.roots.join(', ')}/ put on the environment's path (a src layout), as an editable install would, without building the project`
      : null,
    took.uvLock ? "uv.lock's versions pin the requirements it locks" : null,
  ].filter((note): note is string => note !== null);
}

function parsePyproject(text: string): PyProject {
  let parsed: unknown;
  try {
    parsed = parseToml(text);
  } catch (error) {
    throw new ManifestProblem(`pyproject.toml is not valid TOML: ${(error as Error).message.split('\n')[0]}`);
  }
  const manifest = PyProject.safeParse(parsed);
  if (!manifest.success) throw new ManifestProblem(`pyproject.toml: ${manifest.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return manifest.data;
}
