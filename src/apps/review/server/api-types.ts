/**
 * What the viewer's JSON API answers, endpoint by endpoint: the one contract between the server and
 * the web client (web/client/), which imports these types only — nothing of the server reaches the
 * browser's bundle.
 */

import type { Thread } from '../conversation.ts';
import type { ExchangeSummary, RunPage } from '../run-page.ts';
import type { SearchResult } from '../run-search.ts';
import type { PageDelta } from './page-delta.ts';
import type { RunListing, RunRelations } from './run-catalog.ts';
import type { LaunchView } from './run-launcher.ts';

export type { ChangeFile, ChangeView } from '../change-diff.ts';
export type { Thread, ThreadEntry } from '../conversation.ts';
export type { CoverageTestView, CoverageView, CriterionView } from '../coverage-view.ts';
export type { Commit } from '../git-history.ts';
export type { RoleView } from '../role-diagrams.ts';
export type { CodeFileView, CodeVersion, DocumentView, ExchangeSummary, OpenQuestions, PendingDecision, RunPage, TestRoundView } from '../run-page.ts';
export type { RunStatus, TimelineEntry } from '../run-report.ts';
export type { SearchHit, SearchResult } from '../run-search.ts';
export type { UsageRow, UsageSummary } from '../usage-summary.ts';
export type { RunListing, RunRelations } from './run-catalog.ts';
export type { LaunchView } from './run-launcher.ts';

/** GET /api/runs */
export interface RunsAnswer {
  root: string;
  runs: RunListing[];
}

/** GET /api/runs/<name>: the sections that changed since the page's last answer (page-delta.ts). */
export type RunPageAnswer = PageDelta &
  Partial<Omit<RunPage, 'timeline'>> &
  Partial<RunRelations> & { timeline: RunPage['timeline']; launch?: LaunchView | null };

/** GET /api/runs/<name>/exchanges?from&limit */
export interface ExchangesAnswer {
  total: number;
  from: number;
  items: ExchangeSummary[];
}

/** GET /api/runs/<name>/exchanges/<n>: one exchange whole. */
export interface ExchangeAnswer {
  index: number;
  messages: { role: string; content: string }[];
  reply: string;
  finishReason?: string | null;
  error?: string | null;
}

/** GET /api/runs/<name>/messages/<id> */
export interface MessageAnswer {
  id: string;
  payload: unknown;
}

/** GET /api/runs/<name>/conversations */
export interface ConversationsAnswer {
  threads: Thread[];
}

/** GET /api/runs/<name>/commits/<hash> */
export interface CommitAnswer {
  hash: string;
  diff: string;
}

/** GET /api/runs/<name>/search?q= */
export type SearchAnswer = SearchResult;

/** GET /api/session: whether this browser holds the token that lets it write. */
export interface SessionAnswer {
  canDecide: boolean;
}

/** POST /api/runs/<name>/decision: what was decided, and the run continued (or why it could not be). */
export interface DecisionAnswer {
  decided: { role: string; gate: string; key: string | null; round: number; what: string }[];
  approved: boolean;
  next: string;
  launch: LaunchView | null;
  launchError: ErrorAnswer | null;
}

/** POST /api/runs/<name>/answers */
export interface AnswersAnswer {
  /** Whose questions were answered, in a line ("answers to 2 questions of product-manager"). */
  answered: string;
  next: string;
  launch: LaunchView | null;
  launchError: ErrorAnswer | null;
}

/** POST /api/runs/<name>/resume */
export interface ResumeAnswer {
  launch: LaunchView;
}

/** POST /api/runs/<name>/change: the change's run, by the name it goes by here. */
export interface ChangeAnswer {
  launch: LaunchView;
  run: string | null;
}

/** An error answer: what happened, and what to do. */
export interface ErrorAnswer {
  error: string;
  hint?: string | null;
}
