/**
 * The install plan of a Python project: a virtual environment made anew in the project (`.venv`) and
 * `pip install` of requirements.txt or pyproject.toml's [project].dependencies, binary wheels only
 * unless scripts are allowed, constrained by requirements.lock when there is one
 * (python-install.ts runs it).
 */
import { parse as parseToml } from 'smol-toml';
import { z } from 'zod';
import { fingerprint, type InstallPlan, ManifestProblem, type PlanOptions, type PlanReader, PYTHON_LOCKFILE } from './plan-types.ts';
import { PYTHON_INSTALL } from './python-install.ts';
import { declaredRequirements } from './python-sources.ts';
import type { ResolvedRegistries } from './registries.ts';

const PyProject = z
  .object({
    project: z
      .object({ dependencies: z.array(z.string()).optional() })
      .passthrough()
      .optional(),
  })
  .passthrough();

/** The plan for requirements.txt or pyproject.toml, or null when neither declares anything. */
export async function planPythonInstall(
  projectDir: string,
  read: PlanReader,
  registries: ResolvedRegistries,
  options: PlanOptions,
): Promise<InstallPlan | null> {
  const { scripts } = options;
  const requirementsTxt = await read('requirements.txt');
  const pyproject = await read('pyproject.toml');
  let requirements: string[] | null = null;
  let declared: string[] = [];
  if (requirementsTxt !== null && requirementsTxt.split('\n').some((line) => line.trim() && !line.trim().startsWith('#'))) {
    requirements = ['-r', 'requirements.txt'];
  } else if (pyproject !== null) {
    let parsed: unknown;
    try {
      parsed = parseToml(pyproject);
    } catch (error) {
      throw new ManifestProblem(`pyproject.toml is not valid TOML: ${(error as Error).message.split('\n')[0]}`);
    }
    const manifest = PyProject.safeParse(parsed);
    if (!manifest.success) throw new ManifestProblem(`pyproject.toml: ${manifest.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    const listed = manifest.data.project?.dependencies ?? [];
    if (listed.length > 0) requirements = listed;
  }
  declared = requirements && requirements[0] !== '-r' ? requirements : [];
  if (!requirements) return null;
  const checked = declared.length > 0 ? declared : declaredRequirements(projectDir, 'requirements.txt');
  const lock = await read(PYTHON_LOCKFILE);
  const source = registries.pipFindLinks ? ['--no-index', '--find-links', registries.pipFindLinks] : ['--index-url', registries.pipIndex];
  const pipArgs = [
    '--disable-pip-version-check',
    '--no-input',
    '--timeout',
    '20',
    '--retries',
    '1',
    ...(scripts ? [] : ['--only-binary', ':all:']),
    ...source,
    ...(lock !== null ? ['-c', PYTHON_LOCKFILE] : []),
    ...requirements,
  ];
  return {
    ecosystem: 'python',
    manifest: declared.length > 0 ? 'pyproject.toml' : 'requirements.txt',
    declared,
    argv: ['python3', '-I', '-S', '-c', PYTHON_INSTALL, PYTHON_LOCKFILE, JSON.stringify(checked), ...pipArgs],
    shown: ['python3', '-I', '-m', 'venv', '--clear', '--without-pip', '.venv', '&&', 'pip', 'install', '--prefix', '.venv', ...pipArgs],
    lockfile: PYTHON_LOCKFILE,
    fingerprint: fingerprint([requirementsTxt, pyproject, lock]),
    settings: [],
    workspaces: [],
    manager: null,
    wrapper: null,
    catalogs: {},
  };
}
