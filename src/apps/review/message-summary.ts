/** One line that says what a board message carries, for timelines. Pure. */

import type * as S from '../../documents/index.ts';
import { describeCoverage } from '../../documents/index.ts';
import type { Message } from '../../engine/board/index.ts';
import { shellCommand } from '../../ground/markdown.ts';

const MAX = 120;

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Collapses whitespace and cuts at `max` characters with an ellipsis. */
export function oneLine(text: string, max = MAX): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

export function reviewVerdict(review: S.Review | null): string {
  if (!review) return 'not reviewed';
  if (review.approved) return 'review approved';
  return `review: ${plural(review.issues.length, 'issue')} left`;
}

export function testCounts(report: S.TestReport): string {
  const verdict = report.passed ? 'passed' : report.timedOut ? 'timed out' : 'failed';
  const counts = report.counts
    ? ` (${report.counts.passed} passed, ${report.counts.failed} failed)`
    : report.exitCode === null
      ? ''
      : ` (exit code ${report.exitCode})`;
  const flaky = report.vsBase?.flaky?.length ?? 0;
  return `${verdict}${counts}${flaky > 0 ? `, ${flaky} flaky (not blamed)` : ''}`;
}

/** What each message type carries, in words: one describer per type, from its payload. */
type Describer = (payload: never) => string;

const criteria = (text: string) => text.replace('criterions', 'criteria');

const ARTIFACTS: Record<string, Describer> = {
  Requirement: (p: S.Requirement) => p.request ?? p.spec ?? '',
  PRD: (p: S.PRD) =>
    criteria(
      `${p.projectName}: ${plural(p.goals.length, 'goal')}, ${plural(p.requirementPool.length, 'requirement')}, ${plural(p.acceptanceCriteria.length, 'acceptance criterion')}`,
    ),
  Design: (p: S.Design) => `${p.language}; ${plural(p.files.length, 'file')}; tests: ${shellCommand(p.testCommand)}`,
  TaskGraph: (p: S.TaskGraph) => `${plural(p.tasks.length, 'task')}: ${p.tasks.map((t) => t.file).join(', ')}`,
  Code: (p: S.Code) => `${p.path} (${plural(p.content.split('\n').length, 'line')}) — ${reviewVerdict(p.review)}`,
  CodeComplete: (p: S.CodeComplete) => `${plural(p.files.length, 'file')} ready for testing`,
  Tests: (p: S.TestFiles) => p.files.map((f) => f.path).join(', '),
  TestReport: (p: S.TestReport) => `round ${p.round} ${testCounts(p)}`,
  Coverage: (p: S.Coverage) => `after round ${p.round}: ${describeCoverage(p)}`,
  ManualChecks: (p: S.ManualChecks) => `to review by reading: ${p.checks.map((c) => `${c.id} (${c.artifacts.join(', ')})`).join('; ')}`,
  ManualVerdicts: (p: S.ManualVerdicts) => p.verdicts.map((v) => `${v.id} ${v.verdict}: ${v.reason}`).join('; '),
  BugReport: (p: S.BugReport) => p.summary,
  Document: (p: { path: string }) => p.path,
  Outcome: (p: S.Outcome) => `${p.outcome}: ${p.reason}`,
  Dependencies: (p: S.DependencyInstall) => {
    const verdict = p.passed ? 'installed' : p.timedOut ? 'install timed out' : 'install failed';
    const locked = p.lockfile ? `; ${p.lockfile.path} locked` : '';
    const skipped = p.scriptsSkipped.length > 0 ? `; install scripts kept from running: ${p.scriptsSkipped.join(', ')}` : '';
    return `${p.ecosystem ?? 'no'} dependencies ${verdict}${locked}${skipped}`;
  },
  Approval: (p: S.Approval) => {
    const what = `the ${p.gate}${p.key ? ` ${p.key}` : ''} of ${p.role}`;
    return p.approved ? `approved ${what}` : `rejected ${what}${p.feedback ? `: ${p.feedback}` : ''}`;
  },
  Answers: (p: S.Answers) =>
    `answered ${plural(p.answers.length, 'question')} of ${p.role}: ${p.answers.map((a) => `${a.question} — ${a.answer || 'no preference'}`).join('; ')}`,
};

const CHANGES: Record<string, Describer> = {
  RepositoryMap: (p: S.RepositoryMap) =>
    `map of the repository at ${p.base.slice(0, 12)}: ${plural(p.fileCount, 'file')}, ${plural(p.interfaces.length, 'interface')}`,
  ChangeRequest: (p: S.ChangeRequest) =>
    criteria(`${p.title}: ${plural(p.changes.length, 'change')}, ${plural(p.acceptanceCriteria.length, 'acceptance criterion')}`),
  DesignDelta: (p: S.DesignDelta) => `${p.language}; ${plural(p.files.length, 'file')} touched; tests: ${shellCommand(p.testCommand)}`,
  ChangeTaskGraph: (p: S.ChangeTaskGraph) =>
    `${plural(p.tasks.length, 'task')}: ${p.tasks.map((t) => `${t.op} ${t.from ? `${t.from} → ` : ''}${t.file}`).join(', ')}`,
  Removal: (p: S.Removal) => (p.renamedTo ? `${p.path} moved to ${p.renamedTo}` : `${p.path} removed`),
  BaselineTests: (p: S.BaselineTests) => (p.ran ? `the tests on the base ${testCounts(p)}` : 'the base has no tests'),
};

function describe(message: Message): string {
  const describer = Object.hasOwn(ARTIFACTS, message.type) ? ARTIFACTS[message.type] : Object.hasOwn(CHANGES, message.type) ? CHANGES[message.type] : undefined;
  // A type this view does not know yet (a new SOP's): its fields by name, never raw JSON.
  return describer ? describer(message.payload as never) : fieldsInWords(message.payload);
}

/** The message's one-line summary; a payload that does not have the expected shape is shown field by field. */
export function summarizeMessage(message: Message, max = MAX): string {
  try {
    return oneLine(describe(message), max);
  } catch {
    return oneLine(fieldsInWords(message.payload), max);
  }
}

/** A payload of an unknown type as `name: value` pairs, short values first-line only. */
function fieldsInWords(payload: unknown): string {
  if (payload === null || typeof payload !== 'object') return String(payload ?? '');
  return Object.entries(payload as Record<string, unknown>)
    .map(([name, value]) => {
      const shown = Array.isArray(value) ? plural(value.length, 'item') : value !== null && typeof value === 'object' ? '…' : String(value);
      return `${name}: ${shown.split('\n')[0]}`;
    })
    .join('; ');
}
