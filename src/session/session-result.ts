/**
 * What a run came to, for whoever started it: the outcome and its exit code, and what to do next — as
 * lines for a person and as the commands among them (`sopworks resume …`, `sopworks approve …`).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { approvalsOf, parseWaiting, questionsOf } from '../capabilities/approvals/index.ts';
import type { RunResult } from '../company/index.ts';
import { cleanLine } from '../ground/terminal-text.ts';
import { continuationAdvice } from './continuation-advice.ts';
import { exitCodeOfOutcome } from './exit-code.ts';
import { type OpenQuestions, questionLines } from './question-lines.ts';

export type SessionCommand = 'run' | 'change' | 'resume';

export interface SessionResult {
  command: SessionCommand;
  run: RunResult;
  exitCode: number;
  /** What to do next, as lines for a person. */
  lines: string[];
  /** The commands among them, and those the request adds (a change's diff). */
  next: string[];
  /** The questions a run awaiting answers waits on (`--clarify` with nobody to ask); none otherwise. */
  questions: OpenQuestions[];
}

export function sessionResult(command: SessionCommand, run: RunResult, extraNext: readonly string[]): SessionResult {
  const shown = path.relative(process.cwd(), run.projectDir) || run.projectDir;
  const questions = run.outcome === 'awaiting-approval' ? waitingOf(run.projectDir).questions : [];
  const { lines, next } = whatNext(run, shown);
  return { command, run, exitCode: exitCodeOfOutcome(run.outcome), lines, next: [...next, ...extraNext], questions };
}

/** The lines that say what to do next, and the commands among them. */
function whatNext(result: RunResult, shown: string): { lines: string[]; next: string[] } {
  if (result.outcome === 'done') return { lines: [`\nNext: cd ${shown} && git log --stat`], next: [`cd ${shown} && git log --stat`] };
  if (result.outcome === 'criteria-unmet') return criteriaUnmet(shown);
  const advice = result.outcome === 'failed' ? continuationAdvice(result.messages, runRecordOf(result.projectDir)) : null;
  if (advice) return { lines: [`\n${cleanLine(advice.why)}\n${advice.instead}`], next: [] };
  const lines = [`\nContinue it with: sopworks resume ${shown}`];
  const next = [`sopworks resume ${shown}`];
  if (result.outcome === 'budget-exhausted') lines.push('Raise the limit with --budget <dollars> or --max-tokens <tokens> when you resume.');
  if (result.outcome === 'timed-out') lines.push('It stopped at its time limit: give resume a new --max-time (or none) to go on.');
  if (result.outcome === 'awaiting-approval') {
    const waiting = waitingOf(result.projectDir);
    if (waiting.questions.length > 0) {
      // The questions first: nothing goes on before they are answered.
      lines.splice(0, 1, '', ...questionLines(waiting.questions, shown));
      lines.push(`Or answer on the run's page (sopworks serve ${shown}), or resume it at a terminal, which asks them.`);
      lines.push(`Then continue it with: sopworks resume ${shown}`);
      next.unshift(`sopworks serve ${shown}`);
      next.unshift(`sopworks answer ${shown} ${waiting.questions[0]!.questions.map((_, i) => `"<answer ${i + 1}>"`).join(' ')}`);
    }
    if (waiting.questions.length === 0 || waiting.approvals > 0) {
      lines.push(`Decide first: sopworks approve ${shown}  (or --reject "what to change")`);
      next.unshift(`sopworks approve ${shown}`);
    }
  }
  if (result.outcome === 'paused') {
    lines[0] = result.resumeAt
      ? `\nPaused at the endpoint's limit. Go on after ${result.resumeAt} with: sopworks resume ${shown}  (SOPWORKS_WAIT_FOR_QUOTA=true waits instead)`
      : `\nStopped early, as asked. Go on to the end with: sopworks resume ${shown}`;
  }
  return { lines, next };
}

/**
 * A run delivered with a P0 criterion unproven: the reason named them; what is left is a change that
 * meets them (its own branch), since a resumed run would end the same way.
 */
function criteriaUnmet(shown: string): { lines: string[]; next: string[] } {
  const change = `sopworks change ${shown} "<what the unmet criteria need>"`;
  return { lines: [`\nThe criteria and the tests that prove them: sopworks review ${shown}`, `Ask for the rest with: ${change}`], next: [change] };
}

/** How many approvals, and which questions, a stopped run waits on (.sopworks/approvals.json); none when it cannot be read. */
function waitingOf(projectDir: string): { approvals: number; questions: OpenQuestions[] } {
  try {
    const waiting = parseWaiting(JSON.parse(readFileSync(path.join(projectDir, '.sopworks', 'approvals.json'), 'utf8')));
    return { approvals: approvalsOf(waiting).length, questions: questionsOf(waiting) };
  } catch {
    return { approvals: 0, questions: [] };
  }
}

/** run.json, for what it says of a change run (its repository and branch); null when it cannot be read. */
function runRecordOf(projectDir: string): object | null {
  try {
    return JSON.parse(readFileSync(path.join(projectDir, '.sopworks', 'run.json'), 'utf8')) as object;
  } catch {
    return null;
  }
}
