/**
 * What the sandbox runs for a Python install — the host's python3, by its absolute path, isolated
 * (`-I -S`: no project folder on sys.path, no PYTHON* variable, no site, so neither a project's
 * `pip/` or `venv.py` nor any `.pth` is read):
 *
 * 1. a virtual environment made anew in `.venv` (sopworks removed whatever was there before the
 *    sandbox started: a committed one, or one an earlier test round changed), without pip;
 * 2. pip — the wheel that came with this python3 (ensurepip's, outside the project) — run by the
 *    venv's interpreter, isolated too, installing into the venv by its prefix, so that console
 *    scripts start the venv's Python; nothing installed can replace the pip that runs;
 * 3. what was installed, read from the venv's metadata by the host's Python (PYTHON_INSTALLED):
 *    the lockfile, and each declared requirement checked against it with pip's own `packaging`.
 *
 * pip's exit status is the install's.
 */

import { PROJECT_PTH } from '../sandbox/index.ts';

/** The line PYTHON_INSTALLED ends with: the declared requirements the venv does not satisfy, as JSON. */
export const INSTALLED_CHECK_LINE = 'sopworks-install-check: ';

/**
 * argv: <pip wheel> <site folders, JSON> <declared requirements, JSON> [<lockfile>]. Writes the
 * lockfile (`name==version` per installed distribution, as `pip freeze`), then prints
 * INSTALLED_CHECK_LINE with `[{name, declared, found}]`: each requirement whose marker holds here and
 * that is missing (`found: null`) or at a version outside its specifier.
 */
export const PYTHON_INSTALLED = [
  'import importlib.metadata, json, re, sys',
  'wheel, sites, declared = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])',
  'lock = sys.argv[4] if len(sys.argv) > 4 else None',
  'sys.path.insert(0, wheel)',
  'from pip._vendor.packaging.requirements import Requirement',
  "canon = lambda name: re.sub(r'[-_.]+', '-', name).lower()",
  'installed = {}',
  'for dist in importlib.metadata.distributions(path=sites):',
  "  name = dist.metadata['Name']",
  '  if name: installed.setdefault(canon(name), (name, dist.version))',
  "if lock: open(lock, 'w').write(''.join(f'{name}=={version}\\n' for name, version in sorted(installed.values(), key=lambda e: e[0].lower())))",
  'unmet = []',
  'for line in declared:',
  '  try: req = Requirement(line)',
  "  except Exception: unmet.append({'name': line, 'declared': line, 'found': None}); continue",
  "  if req.marker is not None and not req.marker.evaluate({'extra': ''}): continue",
  '  found = installed.get(canon(req.name))',
  '  if found is None or not req.specifier.contains(found[1], prereleases=True):',
  "    unmet.append({'name': req.name, 'declared': line, 'found': found[1] if found else None})",
  `print(${JSON.stringify(INSTALLED_CHECK_LINE)} + json.dumps(unmet), flush=True)`,
].join('\n');

/**
 * Runs pip from its wheel: `python -I -S -c RUN_PIP <wheel> <venv> install …`. Without `site`, the
 * venv's interpreter keeps the base prefix (site's `venv()` is what moves it): the prefix is set here
 * as site would set it, without putting its site-packages — where pip installs — on sys.path. (A
 * Debian python3 would otherwise install into `.venv/local/lib/…/dist-packages`: measured.)
 */
const RUN_PIP = [
  'import runpy, sys',
  'sys.path.insert(0, sys.argv.pop(1))',
  'sys.prefix = sys.exec_prefix = sys.argv.pop(1)',
  "sys.argv[0] = 'pip'",
  "runpy.run_module('pip', run_name='__main__', alter_sys=True)",
].join('; ');

/**
 * argv: <lockfile> <declared requirements, JSON> <the project's source folders, JSON> <pip install
 * arguments…> (none: nothing to install); run in the project folder. Each source folder (a src
 * layout's `src`) is put on the environment's path by a `.pth` naming it relative to site-packages,
 * as an editable install does, without building the project.
 */
export const PYTHON_INSTALL = [
  'import glob, json, os, re, subprocess, sys, sysconfig, venv',
  'lock, declared, roots, args = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), sys.argv[4:]',
  "home = os.path.abspath('.venv')",
  'venv.EnvBuilder(with_pip=False, symlinks=True, clear=True).create(home)',
  "places = [os.path.join(sysconfig.get_paths()['stdlib'], 'ensurepip', '_bundled'), sysconfig.get_config_var('WHEEL_PKG_DIR') or '']",
  "wheels = [w for place in places if place for w in glob.glob(os.path.join(place, 'pip-*.whl'))]",
  "if not wheels: sys.exit('sopworks: this python3 has no pip wheel of its own (ensurepip): install python3-venv (Debian, Ubuntu) or python3-pip-wheel (Fedora)')",
  "wheel = max(wheels, key=lambda w: [int(n) for n in re.findall(r'\\d+', os.path.basename(w).split('-')[1])])",
  "where = {'base': home, 'platbase': home}",
  "sites = sorted({sysconfig.get_path(kind, 'posix_prefix', vars=where) for kind in ('purelib', 'platlib')})",
  "py = os.path.join(home, 'bin', 'python')",
  `pip = [py, '-I', '-S', '-c', ${JSON.stringify(RUN_PIP)}, wheel, home, 'install', '--prefix', home, '--no-warn-script-location']`,
  // Before pip: a failed install still leaves the project's sources importable, for the tests run without it.
  'if roots:',
  '  os.makedirs(sites[0], exist_ok=True)',
  `  open(os.path.join(sites[0], ${JSON.stringify(PROJECT_PTH)}), 'w').write(''.join(os.path.relpath(os.path.abspath(root), sites[0]) + '\\n' for root in roots))`,
  'status = subprocess.run([*pip, *args]).returncode if args else 0',
  'if status: sys.exit(status)',
  `sys.exit(subprocess.run([sys.executable, '-I', '-S', '-c', ${JSON.stringify(PYTHON_INSTALLED)}, wheel, json.dumps(sites), declared, lock]).returncode)`,
].join('\n');
