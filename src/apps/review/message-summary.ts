/** One line that says what a board message carries, for timelines. Pure. */
import type { Message } from '../../engine/board/message.ts';
import type * as S from '../../documents/schemas.ts';
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
  return `${verdict}${counts}`;
}

function describe(message: Message): string {
  const p = message.payload as never;
  switch (message.type) {
    case 'Requirement':
      return (p as S.Requirement).spec;
    case 'PRD': {
      const prd = p as S.PRD;
      return `${prd.projectName}: ${plural(prd.goals.length, 'goal')}, ${plural(prd.requirementPool.length, 'requirement')}, ${plural(prd.acceptanceCriteria.length, 'acceptance criterion')}`.replace(
        'criterions',
        'criteria',
      );
    }
    case 'Design': {
      const design = p as S.Design;
      return `${design.language}; ${plural(design.files.length, 'file')}; tests: ${shellCommand(design.testCommand)}`;
    }
    case 'TaskGraph': {
      const graph = p as S.TaskGraph;
      return `${plural(graph.tasks.length, 'task')}: ${graph.tasks.map((t) => t.file).join(', ')}`;
    }
    case 'Code': {
      const code = p as S.Code;
      return `${code.path} (${plural(code.content.split('\n').length, 'line')}) — ${reviewVerdict(code.review)}`;
    }
    case 'CodeComplete':
      return `${plural((p as S.CodeComplete).files.length, 'file')} ready for testing`;
    case 'Tests':
      return (p as S.TestFiles).files.map((f) => f.path).join(', ');
    case 'TestReport': {
      const report = p as S.TestReport;
      return `round ${report.round} ${testCounts(report)}`;
    }
    case 'BugReport':
      return (p as S.BugReport).summary;
    case 'Document':
      return (p as { path: string }).path;
    case 'Outcome': {
      const outcome = p as S.Outcome;
      return `${outcome.outcome}: ${outcome.reason}`;
    }
    default:
      return JSON.stringify(message.payload) ?? '';
  }
}

/** The message's one-line summary; a payload that does not have the expected shape is shown as JSON. */
export function summarizeMessage(message: Message, max = MAX): string {
  try {
    return oneLine(describe(message), max);
  } catch {
    return oneLine(JSON.stringify(message.payload) ?? '', max);
  }
}
