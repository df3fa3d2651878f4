/** One line that says what a board message carries, for timelines. Pure. */
import type { Message } from '../../engine/board/message.ts';
import type * as S from '../../documents/schemas.ts';
import type * as C from '../../documents/change-schemas.ts';
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
    case 'Dependencies': {
      const install = p as S.DependencyInstall;
      const verdict = install.passed ? 'installed' : install.timedOut ? 'install timed out' : 'install failed';
      return `${install.ecosystem ?? 'no'} dependencies ${verdict}${install.lockfile ? `; ${install.lockfile.path} locked` : ''}${install.scriptsSkipped.length > 0 ? `; install scripts kept from running: ${install.scriptsSkipped.join(', ')}` : ''}`;
    }
    case 'Approval': {
      const a = p as S.Approval;
      const what = `the ${a.gate}${a.key ? ` ${a.key}` : ''} of ${a.role}`;
      return a.approved ? `approved ${what}` : `rejected ${what}${a.feedback ? `: ${a.feedback}` : ''}`;
    }
    case 'RepositoryMap': {
      const map = p as C.RepositoryMap;
      return `map of the repository at ${map.base.slice(0, 12)}: ${plural(map.fileCount, 'file')}, ${plural(map.interfaces.length, 'interface')}`;
    }
    case 'ChangeRequest': {
      const request = p as C.ChangeRequest;
      return `${request.title}: ${plural(request.changes.length, 'change')}, ${plural(request.acceptanceCriteria.length, 'acceptance criterion')}`.replace(
        'criterions',
        'criteria',
      );
    }
    case 'DesignDelta': {
      const delta = p as C.DesignDelta;
      return `${delta.language}; ${plural(delta.files.length, 'file')} touched; tests: ${shellCommand(delta.testCommand)}`;
    }
    case 'ChangeTaskGraph': {
      const graph = p as C.ChangeTaskGraph;
      return `${plural(graph.tasks.length, 'task')}: ${graph.tasks.map((t) => `${t.op} ${t.from ? `${t.from} → ` : ''}${t.file}`).join(', ')}`;
    }
    case 'Removal': {
      const removal = p as C.Removal;
      return removal.renamedTo ? `${removal.path} moved to ${removal.renamedTo}` : `${removal.path} removed`;
    }
    case 'BaselineTests': {
      const base = p as C.BaselineTests;
      return base.ran ? `the tests on the base ${testCounts(base)}` : 'the base has no tests';
    }
    default:
      // A type this view does not know yet (a new SOP's): its fields by name, never raw JSON.
      return fieldsInWords(message.payload);
  }
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
