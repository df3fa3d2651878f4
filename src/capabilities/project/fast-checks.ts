/**
 * The cheap checks of a draft file, run before any model review is spent on it: a syntax check for
 * JavaScript (`node --check`), the type checker for TypeScript once the project's own `typescript` is
 * installed (`tsc --noEmit`), byte-compiling for Python (`py_compile`), JSON parsing for manifests,
 * and the project's linter when it declares one (`npm run lint` once installed, a venv's ruff or
 * flake8). Each runs in the sandbox, without network, on a scratch copy: the draft is not in the
 * repository yet, and a checker must not leave files (__pycache__, build output) behind in it.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastCheck } from '../../documents/index.ts';
import { SopworksError } from '../../ground/errors.ts';
import { runSandboxed, SANDBOX_PROJECT, type SandboxSettings } from '../../host/sandbox/index.ts';

const exec = promisify(execFile);

export interface CheckerPlan {
  checker: string;
  argv: string[];
  /** Runs on a copy of the whole project with its installed dependencies, not on the file alone. */
  whole: boolean;
  /** Which lines of the output are about this file (a type checker reports the whole project). */
  about?: (line: string) => boolean;
}

const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );

/** The checkers that apply to a file in this project, cheapest first. */
export async function checkersFor(file: string, projectDir: string): Promise<CheckerPlan[]> {
  const ext = path.extname(file).toLowerCase();
  const plans: CheckerPlan[] = [];
  const installed = (rel: string) => exists(path.join(projectDir, rel));
  if (['.js', '.mjs', '.cjs'].includes(ext)) plans.push({ checker: 'node --check', argv: ['node', '--check', file], whole: false });
  if (['.ts', '.mts', '.cts', '.tsx'].includes(ext) && (await installed('node_modules/typescript/bin/tsc')) && (await installed('tsconfig.json'))) {
    plans.push({
      checker: 'tsc --noEmit',
      argv: ['node', 'node_modules/typescript/bin/tsc', '--noEmit', '-p', '.'],
      whole: true,
      about: (line) => line.startsWith(`${file}(`) || line.startsWith(`${file}:`),
    });
  }
  if (ext === '.py') plans.push({ checker: 'py_compile', argv: ['python3', '-m', 'py_compile', file], whole: false });
  if (['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.tsx', '.jsx'].includes(ext) && (await installed('node_modules')) && (await declaresLint(projectDir))) {
    plans.push({ checker: 'npm run lint', argv: ['npm', 'run', 'lint', '--silent'], whole: true });
  }
  if (ext === '.py') {
    for (const linter of ['ruff', 'flake8']) {
      if (await installed(`.venv/bin/${linter}`)) {
        plans.push({ checker: linter, argv: [`.venv/bin/${linter}`, ...(linter === 'ruff' ? ['check'] : []), file], whole: true });
        break;
      }
    }
  }
  return plans;
}

async function declaresLint(projectDir: string): Promise<boolean> {
  const text = await fs.readFile(path.join(projectDir, 'package.json'), 'utf8').catch(() => null);
  if (!text) return false;
  try {
    return typeof (JSON.parse(text) as { scripts?: Record<string, unknown> }).scripts?.lint === 'string';
  } catch {
    return false;
  }
}

/** Parse errors of a JSON file (package.json, tsconfig.json…), checked here: parsing runs nothing. */
export function jsonProblems(file: string, content: string): string[] {
  if (path.extname(file).toLowerCase() !== '.json') return [];
  try {
    JSON.parse(content);
    return [];
  } catch (error) {
    return [`${file} is not valid JSON: ${(error as Error).message}`];
  }
}

/** Runs a draft's checkers; returns one FastCheck per checker that ran (and a note per one that could not). */
export async function runFastChecks(input: {
  file: string;
  content: string;
  projectDir: string;
  sandbox: SandboxSettings;
  onNotice?: (notice: string) => void;
}): Promise<FastCheck[]> {
  const { file, content, projectDir } = input;
  const results: FastCheck[] = [];
  const json = jsonProblems(file, content);
  if (path.extname(file).toLowerCase() === '.json') results.push({ path: file, checker: 'JSON.parse', passed: json.length === 0, problems: json });
  const plans = await checkersFor(file, projectDir);
  for (const plan of plans) {
    const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'sopworks-check-'));
    try {
      if (plan.whole) await copyProject(projectDir, scratch);
      await fs.mkdir(path.dirname(path.join(scratch, file)), { recursive: true });
      await fs.writeFile(path.join(scratch, file), content);
      // Alone, a .js file is CommonJS to Node, and Node 20 passes an ES module with a syntax error as valid:
      // say which it is, as the project's package.json would.
      if (!plan.whole && path.extname(file) === '.js' && /^\s*(import|export)\b/m.test(content)) {
        await fs.writeFile(path.join(scratch, 'package.json'), '{ "type": "module" }\n');
      }
      let outcome: Awaited<ReturnType<typeof runSandboxed>>;
      try {
        outcome = await runSandboxed({
          argv: plan.argv,
          projectDir: scratch,
          limits: { ...input.sandbox.limits, wallSeconds: 60 },
          setting: input.sandbox.mode,
          allowUnsandboxed: input.sandbox.allowUnsandboxed,
          onNotice: input.onNotice,
        });
      } catch (error) {
        // A checker that cannot run here (no sandbox for it) is skipped: the tests will run the code anyway.
        if (SopworksError.isInstance(error)) {
          input.onNotice?.(`${plan.checker} not run on ${file}: ${error.message}`);
          continue;
        }
        throw error;
      }
      const lines = outcome.output
        .split('\n')
        .map((line) => line.replaceAll(`${scratch}/`, '').replaceAll(`${SANDBOX_PROJECT}/`, '').trimEnd())
        .filter((line) => line.trim() !== '');
      const about = plan.about ? lines.filter(plan.about) : lines;
      const failed = outcome.timedOut || (outcome.exitCode !== 0 && (plan.about ? about.length > 0 || !lines.some(isDiagnosticLine) : true));
      results.push({
        path: file,
        checker: plan.checker,
        passed: !failed,
        problems: failed ? (outcome.timedOut ? [`${plan.checker} timed out`] : (plan.about && about.length > 0 ? about : lines).slice(-30)) : [],
      });
    } finally {
      await fs.rm(scratch, { recursive: true, force: true }).catch(() => undefined);
    }
  }
  return results;
}

/** A type checker's "file(line,col): error …" line. */
const isDiagnosticLine = (line: string): boolean => /^\S+\(\d+,\d+\): error /.test(line);

/**
 * The project's files without git's and sopworks' folders; installed dependencies are hard-linked
 * (cheap; the checker only reads them).
 */
async function copyProject(projectDir: string, scratch: string): Promise<void> {
  const skip = new Set(['.git', '.sopworks', 'node_modules', '.venv']);
  for (const entry of await fs.readdir(projectDir, { withFileTypes: true })) {
    if (skip.has(entry.name)) continue;
    await fs.cp(path.join(projectDir, entry.name), path.join(scratch, entry.name), { recursive: true, verbatimSymlinks: true });
  }
  for (const installed of ['node_modules', '.venv']) {
    if (await exists(path.join(projectDir, installed))) await exec('cp', ['-al', path.join(projectDir, installed), path.join(scratch, installed)]);
  }
}
