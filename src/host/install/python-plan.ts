/**
 * The install plan of a Python project: a virtual environment made anew in the project (`.venv`) and
 * `pip install` of what it declares for its code and its tests (python-requirements.ts), binary wheels
 * only unless scripts are allowed, constrained by requirements.lock when there is one, a src layout's
 * folder put on the environment's path (python-install.ts runs it).
 */
import { fingerprint, type InstallPlan, type PlanOptions, type PlanReader, PYTHON_LOCKFILE } from './plan-types.ts';
import { PYTHON_INSTALL } from './python-install.ts';
import { pythonRequirements } from './python-requirements.ts';
import { declaredRequirements } from './python-sources.ts';
import type { ResolvedRegistries } from './registries.ts';

/** The plan for a Python project, or null when it declares nothing to install and has no src layout. */
export async function planPythonInstall(
  projectDir: string,
  read: PlanReader,
  registries: ResolvedRegistries,
  options: PlanOptions,
): Promise<InstallPlan | null> {
  const { scripts } = options;
  const found = await pythonRequirements(projectDir, read);
  if (found.files.length === 0 && found.named.length === 0 && found.roots.length === 0) return null;
  const declared = found.named.map((n) => n.requirement);
  const checked = [...found.files.flatMap((file) => declaredRequirements(projectDir, file)), ...declared];
  const lock = await read(PYTHON_LOCKFILE);
  const source = registries.pipFindLinks ? ['--no-index', '--find-links', registries.pipFindLinks] : ['--index-url', registries.pipIndex];
  const requirements = [...found.files.flatMap((file) => ['-r', file]), ...declared];
  const pipArgs =
    requirements.length === 0
      ? []
      : [
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
  const pth = found.roots.length > 0 ? ['&&', 'echo', ...found.roots, '>', '.venv/lib/python3…/site-packages/_sopworks_project.pth'] : [];
  return {
    ecosystem: 'python',
    manifest: found.files[0] ?? 'pyproject.toml',
    declared,
    argv: ['python3', '-I', '-S', '-c', PYTHON_INSTALL, PYTHON_LOCKFILE, JSON.stringify(checked), JSON.stringify(found.roots), ...pipArgs],
    shown: [
      'python3',
      '-I',
      '-m',
      'venv',
      '--clear',
      '--without-pip',
      '.venv',
      ...(pipArgs.length > 0 ? ['&&', 'pip', 'install', '--prefix', '.venv', ...pipArgs] : []),
      ...pth,
    ],
    lockfile: PYTHON_LOCKFILE,
    fingerprint: fingerprint([...found.texts, lock]),
    settings: [],
    workspaces: [],
    manager: null,
    wrapper: null,
    catalogs: {},
    python: { files: found.files, named: found.named, selfNaming: found.selfNaming, notes: found.notes },
  };
}
