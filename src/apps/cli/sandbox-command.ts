/**
 * `sopworks sandbox exec --dir DIR [--allow-unsandboxed] -- CMD [ARGS…]`: runs a command in a project
 * exactly as QA runs the tests — the same policy check, sandbox, limits and clean environment — and
 * prints the outcome: exit code, mode, limits hit, violations seen, and what the mode does not stop.
 * Exits with the command's exit code (1 when it was killed).
 */
import path from 'node:path';
import pc from 'picocolors';
import { z } from 'zod';
import { readSettings } from '../../capabilities/model/index.ts';
import { commandRefusal, loadPolicy } from '../../capabilities/policy/index.ts';
import { SopworksError } from '../../ground/errors.ts';
import { cleanBlock, cleanLine } from '../../ground/terminal-text.ts';
import { describeLimits, runSandboxed, type SandboxOutcome, sandboxSettings, securityViolations } from '../../host/sandbox/index.ts';
import { parseRequest, positiveInteger } from '../../session/index.ts';
import { EXIT, type Output } from './output.ts';

const ExecOptions = z.object({
  dir: z.string().min(1),
  allowUnsandboxed: z.boolean().default(false),
  timeout: positiveInteger('seconds'),
  role: z.string().min(1),
  sops: z.string().min(1),
});

export async function sandboxExec(argv: string[], rawOptions: unknown, io: Output): Promise<number> {
  const options = parseRequest(ExecOptions, rawOptions, 'sandbox exec');
  const settings = readSettings();
  const policy = await loadPolicy(options.sops);
  const refusal = commandRefusal(policy, options.role, argv);
  if (refusal) {
    throw new SopworksError('USAGE', `Refused: ${refusal.replace(/\.$/, '')}.`, { hint: `Run a command the policy allows, or edit ${policy.source}.` });
  }
  const sandbox = sandboxSettings(settings.sandbox, options.allowUnsandboxed);
  const limits = { ...sandbox.limits, wallSeconds: options.timeout ?? sandbox.limits.wallSeconds };
  const outcome = await runSandboxed({
    argv,
    projectDir: path.resolve(options.dir),
    limits,
    setting: sandbox.mode,
    allowUnsandboxed: sandbox.allowUnsandboxed,
    onNotice: (notice) => io.err(pc.bold(pc.yellow(notice))),
  });
  // The generated program's own output: its lines, never its escape sequences.
  io.out(cleanBlock(outcome.output.trimEnd()));
  io.out(renderOutcome(argv, outcome));
  const security = securityViolations(outcome);
  if (security.length > 0) {
    io.err(pc.bold(pc.red(`SECURITY VIOLATION: the command changed what it must never touch (put back): ${security.join('; ')}`)));
    return EXIT.failed;
  }
  if (outcome.exitCode === 0 && outcome.signal === null) return EXIT.done;
  return outcome.exitCode !== null && outcome.exitCode > 0 && outcome.signal === null ? outcome.exitCode : EXIT.failed;
}

function renderOutcome(argv: readonly string[], outcome: SandboxOutcome): string {
  const ended = outcome.timedOut ? 'killed at the wall-clock limit' : outcome.signal ? `killed by ${outcome.signal}` : `exit code ${outcome.exitCode}`;
  const mode = outcome.mode === 'bubblewrap' ? pc.green(outcome.mode) : pc.bold(pc.yellow(outcome.mode));
  const lines = [
    '',
    `${pc.bold('Command')}     ${argv.join(' ')}`,
    `${pc.bold('Ended')}       ${outcome.exitCode === 0 && !outcome.signal ? pc.green(ended) : pc.red(ended)}`,
    `${pc.bold('Sandbox')}     ${mode}`,
    `${pc.bold('Limits')}      ${describeLimits(outcome.limits)}`,
    `${pc.bold('Limits hit')}  ${outcome.limitsHit.length > 0 ? pc.red(outcome.limitsHit.join(', ')) : 'none'}${outcome.truncated ? ' (output shows the tail)' : ''}`,
    ...(outcome.limitNotes ?? []).map((note) => `  - ${cleanLine(note)}`),
    `${pc.bold('Violations')}  ${outcome.violations.length > 0 ? pc.red(String(outcome.violations.length)) : 'none seen'}`,
    ...outcome.violations.map((v) => `  - ${v.kind}: ${cleanLine(v.detail)}`),
  ];
  if (outcome.gaps.length > 0) lines.push(`${pc.bold('Not stopped')} ${pc.yellow('in this mode:')}`, ...outcome.gaps.map((gap) => `  - ${gap}`));
  return lines.join('\n');
}
