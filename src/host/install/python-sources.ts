/**
 * Every way a Python project's requirements can name where a package comes from, checked before the
 * install. Lines are read as pip reads them (continuations joined, comments cut, a requirement and
 * its per-requirement options split at the first `-` word); the requirement itself is parsed as
 * PEP 508 by pip-requirements-js. Allowed: `name[extras] <versions> ; marker`, a `--hash`, the
 * harmless option lines (`--require-hashes`, `--pre`, `--prefer-binary`), and `-r`/`-c` naming
 * another file of the project (checked too). Refused: `name @ url`, bare URLs and paths (a wheel, an
 * archive, a folder — which pip builds, running its code, even under --only-binary), `-e`, every other
 * option line (`-i`, `--extra-index-url`, `-f`, `--no-index`, `--trusted-host`, `--no-binary`, …) and
 * per-requirement build options.
 */
import path from 'node:path';
import { parsePipRequirementsLine, type Requirement } from 'pip-requirements-js';
import { inside } from '../sandbox/index.ts';
import { OutsideProject, readProjectFile } from './project-file.ts';
import { lineOf, type Refusal } from './refusal.ts';

const ARCHIVE = /\.(whl|tar\.gz|tgz|tar\.bz2|tbz|tar\.xz|txz|tlz|tar\.lz|tar\.lzma|tar|zip)$/i;
const HARMLESS_OPTIONS = new Set(['--require-hashes', '--pre', '--prefer-binary']);
const INCLUDES: Record<string, 'requirements' | 'constraints'> = {
  '-r': 'requirements',
  '--requirement': 'requirements',
  '-c': 'constraints',
  '--constraint': 'constraints',
};
const OPTION_WHY: Record<string, string> = {
  '-i': 'it names another package index',
  '--index-url': 'it names another package index',
  '--extra-index-url': 'it adds another package index',
  '--no-index': 'it turns the configured index off',
  '-f': 'it names another place to find packages',
  '--find-links': 'it names another place to find packages',
  '--trusted-host': 'it turns certificate checks off for a host',
  '--no-binary': 'it lets pip build source distributions, running their code',
  '--only-binary': "sopworks decides what pip may build (the policy's dependencies.scripts)",
  '-e': 'an editable install builds a local folder or a repository checkout, running its code',
  '--editable': 'an editable install builds a local folder or a repository checkout, running its code',
};
const FIX = 'write one requirement per line as a name and versions from the configured index (e.g. `requests>=2.31`), nothing else';

interface LogicalLine {
  number: number;
  text: string;
}

/** pip's reading of a requirements file: continuation lines joined, comments removed, blanks dropped. */
export function logicalLines(text: string): LogicalLine[] {
  const lines: LogicalLine[] = [];
  let pending: LogicalLine | null = null;
  text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .forEach((raw, index) => {
      const current: LogicalLine = pending ? { number: pending.number, text: `${pending.text}${raw}` } : { number: index + 1, text: raw };
      if (/(^|[^\\])\\$/.test(current.text) || current.text === '\\') {
        pending = { number: current.number, text: current.text.slice(0, -1) };
        return;
      }
      pending = null;
      const stripped = current.text.replace(/(^|\s+)#.*$/, '').trim();
      if (stripped !== '') lines.push({ number: current.number, text: stripped });
    });
  if (pending) {
    const last = (pending as LogicalLine).text.replace(/(^|\s+)#.*$/, '').trim();
    if (last !== '') lines.push({ number: (pending as LogicalLine).number, text: last });
  }
  return lines;
}

/** Why one PEP 508 requirement does not install from the index by name, or null when it does. */
export function requirementProblem(requirement: string): string | null {
  let parsed: Requirement | null;
  try {
    parsed = parsePipRequirementsLine(requirement);
  } catch {
    if (/^[a-z][a-z0-9+.-]*:/i.test(requirement)) return 'it installs from a URL, not from the index';
    if (/^[.~/\\]|[/\\]/.test(requirement) || ARCHIVE.test(requirement)) return 'it installs from a local path, which pip builds, running its code';
    return 'pip would not read it as a name and versions';
  }
  if (!parsed) return null;
  if (parsed.type === 'ProjectURL') return `it installs from ${parsed.url}, not from the index (a direct reference)`;
  if (parsed.type !== 'ProjectName') return 'it is not a requirement';
  if (ARCHIVE.test(parsed.name)) return 'pip reads it as a local archive file, not a package name';
  return null;
}

/** Splits `req --opt=v --opt2 v` as pip does: the requirement, then the options from the first `-` word. */
function splitOptions(text: string): { requirement: string; options: string[] } {
  const words = text.split(/\s+/);
  const first = words.findIndex((word) => word.startsWith('-'));
  return first === -1 ? { requirement: text, options: [] } : { requirement: words.slice(0, first).join(' '), options: words.slice(first) };
}

/** A requirements (or constraints) file and the project files it includes, each line checked. */
export function requirementsRefusals(projectDir: string, file: string, seen = new Set<string>(), includedAt?: Omit<Refusal, 'why' | 'fix'>): Refusal[] {
  if (seen.has(file)) return [];
  seen.add(file);
  let text: string | null;
  try {
    text = readProjectFile(projectDir, file);
  } catch (error) {
    if (!(error instanceof OutsideProject)) throw error;
    return [{ file, line: null, found: file, why: error.message, fix: `make ${file} a file of the project` }];
  }
  if (text === null) {
    const where = includedAt ?? { file, line: null, found: file };
    return [{ ...where, why: `it includes ${file}, which is not a file of the project`, fix: 'add the file, or remove the line that includes it' }];
  }
  const refusals: Refusal[] = [];
  for (const line of logicalLines(text)) {
    // The project itself (`-e .`, `.[test]`): never built — its dependencies and extras are installed, its folder put on the path.
    if (SELF_REQUIREMENT.test(line.text)) continue;
    const refuse = (why: string, fix = FIX) => refusals.push({ file, line: line.number, found: line.text, why, fix });
    const { requirement, options } = splitOptions(line.text);
    if (requirement === '') {
      const [option = '', ...rest] = options;
      const name = option.replace(/=.*$/, '');
      const short = /^-[a-zA-Z]/.test(name) && name.length > 2 ? name.slice(0, 2) : name;
      const include = includeOf(options);
      if (include) {
        const included = includedFile(projectDir, file, include.target);
        if (typeof included !== 'string') refuse(included.why, included.fix);
        else refusals.push(...requirementsRefusals(projectDir, included, seen, { file, line: line.number, found: line.text }));
      } else if (!HARMLESS_OPTIONS.has(name) || rest.length > 0) {
        refuse(OPTION_WHY[short] ?? OPTION_WHY[name] ?? `option lines choose how pip installs (${name}), and sopworks does`);
      }
      continue;
    }
    const problem = requirementProblem(requirement);
    if (problem) refuse(problem);
    const build = options.find((option) => !/^--hash(=|$)/.test(option) && !/^sha\d+:/.test(option));
    if (!problem && build) refuse(`it passes an option to the package's build (${build})`);
  }
  return refusals;
}

/** A requirements file's text; empty when it is missing or lies outside the project (a link out is not followed). */
function readInsideProject(projectDir: string, file: string): string {
  try {
    return readProjectFile(projectDir, file) ?? '';
  } catch (error) {
    if (error instanceof OutsideProject) return '';
    throw error;
  }
}

/**
 * The requirements a requirements file declares — its own and those of the project files it includes
 * with `-r` (not the constraints of `-c`) — each without its per-requirement options: what the
 * install is checked against once it ran. Lines that are not requirements are left to the refusals.
 */
export function declaredRequirements(projectDir: string, file: string, seen = new Set<string>()): string[] {
  if (seen.has(file)) return [];
  seen.add(file);
  const text = readInsideProject(projectDir, file);
  const declared: string[] = [];
  for (const line of logicalLines(text)) {
    const { requirement, options } = splitOptions(line.text);
    if (SELF_REQUIREMENT.test(line.text)) continue;
    if (requirement !== '') {
      declared.push(requirement);
      continue;
    }
    const include = includeOf(options);
    if (include?.kind !== 'requirements') continue;
    const included = includedFile(projectDir, file, include.target);
    if (typeof included === 'string') declared.push(...declaredRequirements(projectDir, included, seen));
  }
  return declared;
}

/** `-e .`, `.`, `.[test]`, `-e ./[dev,test]`: the project itself, and the extras it names. */
export const SELF_REQUIREMENT = /^(?:(?:-e|--editable)(?:\s+|=))?\.\/?(?:\[([^\]]*)\])?$/;

/** The extras each line naming the project itself names, in a requirements file and those it includes; null when none names it. */
export function selfExtras(projectDir: string, file: string, seen = new Set<string>()): string[] | null {
  if (seen.has(file)) return null;
  seen.add(file);
  const text = readInsideProject(projectDir, file);
  let extras: string[] | null = null;
  for (const line of logicalLines(text)) {
    const self = SELF_REQUIREMENT.exec(line.text);
    const include = self ? null : includeOf(splitOptions(line.text).options);
    const included = include?.kind === 'requirements' ? includedFile(projectDir, file, include.target) : null;
    const found = self
      ? (self[1] ?? '')
          .split(',')
          .map((e) => e.trim())
          .filter(Boolean)
      : typeof included === 'string'
        ? selfExtras(projectDir, included, seen)
        : null;
    if (found) extras = [...(extras ?? []), ...found];
  }
  return extras;
}

/** An option line's `-r`/`-c` (any spelling: `-r x`, `-rx`, `--requirement=x`): what it includes, or null. */
function includeOf(options: readonly string[]): { kind: 'requirements' | 'constraints'; target: string } | null {
  const [option = '', ...rest] = options;
  const name = option.replace(/=.*$/, '');
  const short = /^-[a-zA-Z]/.test(name) && name.length > 2 ? name.slice(0, 2) : name;
  const kind = INCLUDES[short];
  if (!kind) return null;
  return { kind, target: option.includes('=') ? option.slice(option.indexOf('=') + 1) : short !== name ? option.slice(2) : (rest[0] ?? '') };
}

/** A `-r`/`-c` target: a file of the project (relative, inside it), never a URL. */
function includedFile(projectDir: string, from: string, target: string): string | { why: string; fix: string } {
  const fix = 'include only a requirements file of the project, by a relative path';
  if (target === '') return { why: 'it includes nothing', fix };
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return { why: 'it includes a requirements file from a URL', fix };
  const resolved = path.normalize(path.join(path.dirname(from), target));
  if (path.isAbsolute(target) || !inside(path.join(projectDir, resolved), projectDir)) return { why: 'it includes a file outside the project', fix };
  return resolved;
}

/** pyproject.toml's `[project].dependencies`: each a PEP 508 requirement by name. */
export function pyprojectRefusals(text: string, dependencies: readonly string[], file = 'pyproject.toml'): Refusal[] {
  const refusals: Refusal[] = [];
  for (const dependency of dependencies) {
    const problem = requirementProblem(dependency.trim());
    if (problem) refusals.push({ file, line: lineOf(text, dependency), found: dependency, why: problem, fix: FIX });
  }
  return refusals;
}
