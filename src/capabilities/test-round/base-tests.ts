/**
 * Runs the repository's existing tests on the base, before any change: in a copy of the base commit's
 * tree (git archive) in a temporary folder outside the work tree (a test runner that looks for tests in
 * every folder must not find the copy), in the sandbox, so the Engineers' edits in the work
 * tree never race with it and what was failing before the change is known — and not blamed on it.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SopworksError } from '../../ground/errors.ts';
import { gitEnv } from '../../host/git/git-process.ts';
import { checkInstall, runInstall } from '../../host/install/install-project.ts';
import { describeRefusal } from '../../host/install/refusal.ts';
import type { DependencyRegistries } from '../../host/install/registries.ts';
import { runSandboxed, type SandboxOutcome } from '../../host/sandbox/run-sandboxed.ts';
import type { SandboxSettings } from '../../host/sandbox/sandbox-settings.ts';
import { failureSignature, parseTestOutput } from './parse-test-output.ts';
import type { BaselineTests } from '../../documents/change-schemas.ts';

export interface BaseTestsRequest {
  /** The change's work tree (its git knows the base commit). */
  root: string;
  base: string;
  command: readonly string[];
  timeoutSeconds: number;
  sandbox: SandboxSettings;
  /** Install from the repository's lockfile first (npm ci), through the install entry point. */
  install: { enabled: boolean; network: boolean; registries: DependencyRegistries };
  notice: (text: string) => void;
}

export async function runBaseTests(request: BaseTestsRequest): Promise<BaselineTests> {
  const into = await fs.mkdtemp(path.join(os.tmpdir(), 'sopworks-base-'));
  try {
    await unpackTree(request.root, request.base, into);
    return await runIn(into, request);
  } finally {
    await fs.rm(into, { recursive: true, force: true });
  }
}

const NPM_LOCKFILES = ['npm-shrinkwrap.json', 'package-lock.json'];

async function runIn(into: string, request: BaseTestsRequest): Promise<BaselineTests> {
  let outcome: SandboxOutcome | null = null;
  let command = [...request.command];
  const locked = await Promise.all(
    NPM_LOCKFILES.map((name) =>
      fs.access(path.join(into, name)).then(
        () => true,
        () => false,
      ),
    ),
  );
  if (request.install.enabled && locked.some(Boolean)) {
    const check = await checkInstall({ projectDir: into, registries: request.install.registries, scripts: false, frozen: true });
    if (check.refusals.length > 0) return refusedInstall(check.plan?.shown ?? ['npm', 'ci'], check.refusals.map(describeRefusal));
    if (check.plan) {
      const run = await runInstall(
        { ...check, plan: check.plan },
        {
          ...request.install,
          projectDir: into,
          scripts: false,
          frozen: true,
          sandbox: request.sandbox,
          wallSeconds: request.timeoutSeconds,
          onNotice: request.notice,
        },
      );
      if (run.outcome.exitCode !== 0 || run.outcome.timedOut) [outcome, command] = [run.outcome, check.plan.shown];
    }
  }
  outcome ??= await runSandboxed({
    argv: request.command,
    projectDir: into,
    limits: { ...request.sandbox.limits, wallSeconds: request.timeoutSeconds },
    setting: request.sandbox.mode,
    allowUnsandboxed: request.sandbox.allowUnsandboxed,
    onNotice: request.notice,
  });
  const parsed = parseTestOutput(outcome.output);
  const passed = outcome.exitCode === 0 && !outcome.timedOut && (parsed.counts?.failed ?? 0) === 0;
  return {
    ran: true,
    round: 1,
    command,
    passed,
    exitCode: outcome.exitCode,
    timedOut: outcome.timedOut,
    counts: parsed.counts,
    failures: parsed.failures,
    signature: passed ? 'passed' : failureSignature(parsed, outcome.exitCode, outcome.timedOut, outcome.output),
    output: outcome.output.slice(-8000),
    sandbox: { mode: outcome.mode, limits: outcome.limits, limitsHit: outcome.limitsHit, violations: outcome.violations, gaps: outcome.gaps },
  };
}

/** The base's install refused before it ran: its lockfile or manifest names another source. */
function refusedInstall(command: string[], refusals: string[]): BaselineTests {
  return {
    ran: true,
    round: 1,
    command,
    passed: false,
    exitCode: null,
    timedOut: false,
    counts: null,
    failures: refusals.map((message) => ({ name: 'install: refused', message })),
    signature: 'install: refused',
    output: refusals.join('\n'),
    sandbox: null,
  };
}

/** `git archive <base> | tar -x`: the base's files, without .git, without anything of the work tree. */
function unpackTree(root: string, base: string, into: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', 'git archive --format=tar "$1" | tar -x -C "$2"', 'sh', base, into], {
      cwd: root,
      env: gitEnv(root),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', (error) => reject(new SopworksError('GIT_FAILED', `Could not unpack the base ${base}: ${error.message}`)));
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(new SopworksError('GIT_FAILED', `Could not unpack the base ${base} into ${path.basename(into)} (exit ${code}): ${stderr.trim()}`)),
    );
  });
}
