/**
 * Everything the web viewer shows of one run, as JSON: the report plus the artifacts rendered to
 * HTML, the code with its review notes, the QA rounds, usage charts, the roles' SOP diagrams and a
 * summary of each model exchange (its prompt and reply are fetched on demand).
 */

import { pendingFile, readOpenQuestions, readPending } from '../../capabilities/approvals/index.ts';
import type { Code, Review, TestFiles } from '../../documents/index.ts';
import type { Message } from '../../engine/board/index.ts';
import { describeError } from '../../ground/errors.ts';
import { shellCommand } from '../../ground/markdown.ts';
import { artifactsOf } from './artifacts.ts';
import { type ChangeView, readChangeDiff } from './change-diff.ts';
import { conversationsOf, type Thread, unifiedDiff } from './conversation.ts';
import { type CoverageView, coverageViewOf } from './coverage-view.ts';
import type { LoadedRun } from './load-run.ts';
import { escapeHtml, markdownToHtml } from './markdown-html.ts';
import { testCounts } from './message-summary.ts';
import { type RunRecord, runFiles } from './read-run.ts';
import { type RoleView, roleViewsOf } from './role-diagrams.ts';
import { buildRunReport, type RunReport, type TimelineEntry } from './run-report.ts';
import { usageChartSvg } from './usage-chart.ts';

export interface RenderedFile {
  path: string;
  html: string;
}

export interface DocumentView {
  messageId: string;
  type: string;
  from: string;
  commit: string | null;
  /** False for a document the run keeps in its folder (`.sopworks/documents/`), never on the branch: a change's, by default. */
  onBranch: boolean;
  files: RenderedFile[];
  /** What happened to it, from its conversation, when it had one. */
  story: string | null;
}

export interface CodeVersion {
  messageId: string;
  from: string;
  content: string;
  /** The review verdict the file was committed with; null for tests and unreviewed files. */
  review: Review | null;
  commit: string | null;
  /** A unified diff against the version before it; null for the first. */
  diff: string | null;
}

export interface CodeFileView {
  path: string;
  kind: 'source' | 'test';
  /** Every version published, oldest first: the last one is in the repository. */
  versions: CodeVersion[];
  /** What really happened to it, from its conversation: "approved after 1 revision". */
  story: string | null;
}

export interface TestRoundView {
  messageId: string;
  round: number;
  passed: boolean;
  summary: string;
  command: string;
  html: string;
  /** The tail of the runner's output. */
  output: string;
  bug: { messageId: string; to: string; html: string } | null;
}

export interface ExchangeSummary {
  index: number;
  role: string;
  action: string;
  key: string | null;
  attempt: number;
  ok: boolean;
  error: string | null;
  promptTokens: number;
  completionTokens: number;
  ms: number | null;
  at: string | null;
}

/** A role's questions a stopped run waits on (`--clarify`), for the page to answer; the texts are the model's. */
export interface OpenQuestions {
  role: string;
  round: number;
  questions: { question: string; why: string | null }[];
}

/** A request a stopped run waits on, for the page to decide. */
export interface PendingDecision {
  role: string;
  gate: string;
  key: string | null;
  round: number;
  /** What the person is asked to approve, rendered. */
  html: string;
}

export interface RunPage {
  name: string;
  /** The run's folder, for the commands a reader may type. */
  dir: string;
  /** What the run is waiting for a person to decide (empty unless it stopped awaiting approval). */
  pending: PendingDecision[];
  /** The questions it waits for answers to (empty unless it stopped awaiting them). */
  questions: OpenQuestions[];
  info: RunReport['info'];
  costFacts: RunReport['costFacts'];
  status: RunReport['status'];
  /** The messages, without their payloads (fetched when one is opened: a big run's payloads are most of it). */
  timeline: TimelineEntry[];
  documents: DocumentView[];
  code: CodeFileView[];
  tests: TestRoundView[];
  /** The last coverage matrix: each criterion with the tests that cite it, their files and output lines; null before one. */
  coverage: CoverageView | null;
  usage: RunReport['usage'] & { charts: { byRole: string; byAction: string } };
  roles: RoleView[];
  commits: RunReport['commits'];
  /** A change run's diff against its base, with its branch and the commands to merge and clean up; null for other runs. */
  change: ChangeView | null;
  /** How many model exchanges there are; their summaries are fetched by page (`exchangeSummaries`). */
  exchangeCount: number;
  warnings: string[];
}

/** A summary of each model exchange: what the exchange list and the time chart show. */
export function exchangeSummaries(record: RunRecord): ExchangeSummary[] {
  return record.exchanges.map(({ index, exchange: e }) => ({
    index,
    role: e.role,
    action: e.action,
    key: e.key,
    attempt: e.attempt,
    ok: e.ok,
    error: e.error ?? null,
    promptTokens: e.usage.promptTokens,
    completionTokens: e.usage.completionTokens,
    ms: e.ms ?? null,
    at: e.at ?? null,
  }));
}

/** Artifact types shown with their QA round or as code, not among the documents. */
const NOT_DOCUMENTS = new Set(['Code', 'Tests', 'TestReport', 'Coverage', 'BugReport']);

const renderFile = (path: string, content: string): string =>
  /\.(md|markdown)$/i.test(path) ? markdownToHtml(content) : `<pre><code>${escapeHtml(content)}</code></pre>`;

function codeFiles(messages: readonly Message[], commitOf: (id: string) => string | null, storyOf: (subject: string) => string | null): CodeFileView[] {
  const files = new Map<string, CodeFileView>();
  const add = (path: string, kind: CodeFileView['kind'], version: Omit<CodeVersion, 'diff'>) => {
    const file = files.get(path) ?? files.set(path, { path, kind, versions: [], story: storyOf(path) }).get(path)!;
    const before = file.versions.at(-1);
    file.versions.push({ ...version, diff: before ? unifiedDiff(path, before.content, version.content, [before.messageId, version.messageId]) : null });
  };
  for (const m of messages) {
    if (m.type === 'Code') {
      const code = m.payload as Code;
      add(code.path, 'source', { messageId: m.id, from: m.from, content: code.content, review: code.review ?? null, commit: commitOf(m.id) });
    } else if (m.type === 'Tests') {
      for (const file of (m.payload as TestFiles).files)
        add(file.path, 'test', { messageId: m.id, from: m.from, content: file.content, review: null, commit: commitOf(m.id) });
    }
  }
  return [...files.values()];
}

/** The conversation of every artifact (fetched by the page when its section is opened). */
export function runConversations(record: RunRecord): Thread[] {
  return conversationsOf(record.messages, record.exchanges);
}

/** The model actions each role called: the trace of the path it took through its SOPs. */
function calledActionsOf(record: RunRecord): Map<string, Set<string>> {
  const called = new Map<string, Set<string>>();
  for (const { exchange } of record.exchanges) (called.get(exchange.role) ?? called.set(exchange.role, new Set()).get(exchange.role)!).add(exchange.action);
  return called;
}

const DOCUMENT_SUBJECT: Record<string, string> = { PRD: 'prd', Design: 'design', TaskGraph: 'tasks' };

export async function buildRunPage({ record, commits }: LoadedRun): Promise<RunPage> {
  const report = buildRunReport(record, commits);
  const stories = new Map(conversationsOf(record.messages, record.exchanges, { diffs: false }).map((t) => [t.subject, t.status]));
  const storyOf = (subject: string) => stories.get(subject) ?? null;
  const warnings = report.warnings;
  const commitOf = (id: string) => report.artifacts.find((a) => a.messageId === id)?.commit ?? null;

  const artifacts = artifactsOf(record.messages);
  /** The message's files as committed, rendered; empty when they could not be rendered (a warning says why). */
  const renderedFiles = (id: string): RenderedFile[] =>
    (artifacts.find((a) => a.message.id === id)?.files ?? []).map((f) => ({ path: f.path, html: renderFile(f.path, f.content) }));

  const documents = artifacts
    .filter((a) => !NOT_DOCUMENTS.has(a.message.type))
    .map(({ message, onBranch }) => ({
      messageId: message.id,
      type: message.type,
      from: message.from,
      commit: commitOf(message.id),
      onBranch,
      files: renderedFiles(message.id),
      story: DOCUMENT_SUBJECT[message.type] ? storyOf(DOCUMENT_SUBJECT[message.type]!) : null,
    }));

  const html = (id: string) =>
    renderedFiles(id)
      .map((f) => f.html)
      .join('\n');
  const tests = report.tests.map(({ message, report: r, bug }) => ({
    messageId: message.id,
    round: r.round,
    passed: r.passed,
    summary: testCounts(r),
    command: shellCommand(r.command),
    html: html(message.id),
    output: r.output,
    bug: bug ? { messageId: bug.id, to: bug.to, html: html(bug.id) } : null,
  }));

  let pending: PendingDecision[] = [];
  let questions: OpenQuestions[] = [];
  try {
    questions = (await readOpenQuestions(runFiles(record.dir).state)).map(({ role, round, questions: asked }) => ({ role, round, questions: asked }));
    pending = (await readPending(runFiles(record.dir).state)).map((r) => ({
      role: r.role,
      gate: r.gate,
      key: r.key,
      round: r.round,
      html: markdownToHtml(r.content),
    }));
  } catch (error) {
    warnings.push(
      `${pendingFile(runFiles(record.dir).state)} could not be read (${describeError(error)}); decide with \`sopworks approve\` (or answer by a \`sopworks resume\` at a terminal) instead.`,
    );
  }

  return {
    name: report.name,
    dir: record.dir,
    pending,
    questions,
    info: report.info,
    costFacts: report.costFacts,
    status: report.status,
    timeline: report.timeline,
    documents,
    code: codeFiles(record.messages, commitOf, storyOf),
    tests,
    coverage: coverageViewOf(record.messages),
    usage: {
      ...report.usage,
      charts: {
        byRole: usageChartSvg(report.usage.byRole, 'Tokens per role'),
        byAction: usageChartSvg(report.usage.byAction, 'Tokens per role and action'),
      },
    },
    roles: await roleViewsOf(record.info, record.roleStates, warnings, calledActionsOf(record)),
    commits: report.commits,
    change: await readChangeDiff(record.dir, record.info, record.messages),
    exchangeCount: record.exchanges.length,
    warnings,
  };
}
