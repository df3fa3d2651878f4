/**
 * The conversation behind each artifact, read as a reviewer reads a pull request: each draft, each
 * review with its verdict and issues, each revision (with its diff against the draft before), each
 * publication on the board, each bug report that sent it back, and each person's decision — in order,
 * with who said it. Built from the model exchanges (where drafts and reviews live) and the board
 * (where artifacts are published and decisions recorded). Pure.
 */
import { createTwoFilesPatch } from 'diff';
import { z } from 'zod';
import type { Approval, BugReport, Code } from '../../documents/index.ts';
import type { Message } from '../../engine/board/index.ts';
import { summarizeMessage } from './message-summary.ts';
import type { IndexedExchange } from './read-run.ts';

export type ThreadEntryKind = 'draft' | 'review' | 'revision' | 'fix' | 'published' | 'bug' | 'decision';

export interface ThreadEntry {
  kind: ThreadEntryKind;
  /** The role that said it ("client" for a person's decision). */
  who: string;
  at: string | null;
  /** The model exchange it came from (its prompt and reply are fetched on demand). */
  exchange: number | null;
  /** The board message it is. */
  messageId: string | null;
  /** A review's verdict, or a person's decision. */
  approved: boolean | null;
  issues: string[];
  /** A decision's feedback, a bug report's summary, a publication's one-line summary. */
  text: string | null;
  /** For a revision or a fix: a unified diff against the draft before it. */
  diff: string | null;
}

export interface Thread {
  /** What the thread is about: a file path, or "prd", "design", "tasks", "tests". */
  subject: string;
  entries: ThreadEntry[];
  revisions: number;
  /** What happened, in words: "approved after 2 revisions", "3 issues left after 2 revisions; fixed once after a bug report". */
  status: string;
}

/** Model actions by what they do: `<verb>_<what>`. */
const ACTION = /^(write|review|revise|fix|refix)_(.+)$/;
const SUBJECT_OF_WHAT: Record<string, string> = {
  prd: 'prd',
  design: 'design',
  tasks: 'tasks',
  tests: 'tests',
  file_tests: 'tests',
  bug_report: 'bug reports',
};
const SUBJECT_OF_TYPE: Record<string, string> = { PRD: 'prd', Design: 'design', TaskGraph: 'tasks' };

/** A review as a model wrote it: JSON, perhaps fenced or with words around it. */
const ReviewReply = z.object({ approved: z.boolean(), issues: z.array(z.string()).default([]) });

function parseReview(reply: string): z.infer<typeof ReviewReply> | null {
  const start = reply.indexOf('{');
  const end = reply.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  try {
    const parsed = ReviewReply.safeParse(JSON.parse(reply.slice(start, end + 1)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** A draft's text as a person would compare it: the fenced block's body when there is one, JSON pretty-printed. */
export function draftText(reply: string): string {
  const fenced = /```[^\n]*\n([\s\S]*?)```/.exec(reply);
  const body = fenced ? fenced[1]! : reply;
  try {
    return JSON.stringify(JSON.parse(body), null, 2) + '\n';
  } catch {
    return body.endsWith('\n') ? body : `${body}\n`;
  }
}

/** A unified diff between two versions of a text, or null when they are the same. */
export function unifiedDiff(name: string, before: string, after: string, labels: [string, string] = ['before', 'after']): string | null {
  if (before === after) return null;
  // The library starts with a line of "=" (an svn habit); a reader needs the --- / +++ header only.
  return createTwoFilesPatch(`a/${name}`, `b/${name}`, before, after, labels[0], labels[1], { context: 3 }).replace(/^=+\n/, '');
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
const times = (n: number): string => (n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`);

function statusOf(entries: readonly ThreadEntry[], revisions: number): string {
  const parts: string[] = [];
  const reviews = entries.filter((e) => e.kind === 'review');
  const last = reviews.at(-1);
  const after = revisions === 0 ? (reviews.length > 0 ? 'at the first review' : '') : `after ${plural(revisions, 'revision')}`;
  if (last) parts.push(last.approved ? `approved ${after}`.trim() : `${plural(last.issues.length, 'issue')} left ${after}`.trim());
  else if (revisions > 0) parts.push(`revised ${times(revisions)}`);
  const fixes = entries.filter((e) => e.kind === 'fix').length;
  if (fixes > 0) parts.push(`fixed ${times(fixes)} after a bug report`);
  const decision = entries.findLast((e) => e.kind === 'decision');
  if (decision) parts.push(decision.approved ? 'approved by a person' : 'rejected by a person');
  if (!entries.some((e) => e.kind === 'published')) parts.push('not published yet');
  return parts.join('; ') || 'published without a review';
}

const entry = (partial: Partial<ThreadEntry> & Pick<ThreadEntry, 'kind' | 'who'>): ThreadEntry => ({
  at: null,
  exchange: null,
  messageId: null,
  approved: null,
  issues: [],
  text: null,
  diff: null,
  ...partial,
});

/** Where a board message belongs: the subjects of the threads it adds to. */
function subjectsOf(message: Message): string[] {
  const p = message.payload as never;
  if (SUBJECT_OF_TYPE[message.type]) return [SUBJECT_OF_TYPE[message.type]!];
  if (message.type === 'Code') return [(p as Code).path];
  if (message.type === 'Tests') return ['tests'];
  if (message.type === 'BugReport') return ['bug reports', ...(p as BugReport).files.map((f) => f.path)];
  if (message.type === 'Approval') {
    const a = p as Approval;
    return [a.gate === 'code' && a.key ? a.key : a.gate];
  }
  return [];
}

function messageEntry(message: Message, subject: string): ThreadEntry | null {
  const p = message.payload as never;
  const at = message.createdAt;
  if (message.type === 'Approval') {
    const a = p as Approval;
    return entry({ kind: 'decision', who: message.from, at, messageId: message.id, approved: a.approved, text: a.feedback });
  }
  if (message.type === 'BugReport' && subject !== 'bug reports') {
    const bug = p as BugReport;
    const problem = bug.files.find((f) => f.path === subject)?.problem;
    return entry({ kind: 'bug', who: message.from, at, messageId: message.id, text: problem ? `${bug.summary} — ${problem}` : bug.summary });
  }
  return entry({ kind: 'published', who: message.from, at, messageId: message.id, text: `${message.type}: ${summarizeMessage(message)}` });
}

/** The threads of a run, in the order each began. */
export function conversationsOf(messages: readonly Message[], exchanges: readonly IndexedExchange[], options: { diffs?: boolean } = {}): Thread[] {
  // The statuses alone (for the run page) need no diffs, and diffs are the costly part of a big run.
  const withDiffs = options.diffs !== false;
  const threads = new Map<string, { entries: { sort: number; order: number; entry: ThreadEntry }[]; lastDraft: string | null; revisions: number }>();
  const threadOf = (subject: string) => threads.get(subject) ?? threads.set(subject, { entries: [], lastDraft: null, revisions: 0 }).get(subject)!;
  let order = 0;
  const timeOf = (at: string | null | undefined): number => {
    const t = Date.parse(at ?? '');
    return Number.isNaN(t) ? Number.POSITIVE_INFINITY : t;
  };

  for (const { index, exchange: x } of exchanges) {
    // A reply that failed validation was asked again; only the accepted one is part of the conversation.
    if (!x.ok) continue;
    const match = ACTION.exec(x.action);
    if (!match) continue;
    const [, verb, what] = match as unknown as [string, string, string];
    const subject = x.key ?? SUBJECT_OF_WHAT[what] ?? what;
    const thread = threadOf(subject);
    const base = { who: x.role, at: x.at ?? null, exchange: index };
    let made: ThreadEntry;
    if (verb === 'review') {
      const review = parseReview(x.reply);
      made = entry({ ...base, kind: 'review', approved: review?.approved ?? null, issues: review?.issues ?? [], text: review ? null : x.reply.slice(0, 500) });
    } else {
      const text = withDiffs ? draftText(x.reply) : '';
      const kind = verb === 'write' ? 'draft' : what === 'file' && verb === 'fix' ? 'fix' : 'revision';
      const diff =
        !withDiffs || kind === 'draft' || thread.lastDraft === null
          ? null
          : unifiedDiff(subject, thread.lastDraft, text, ['before', kind === 'fix' ? 'fixed' : 'revised']);
      if (kind === 'revision') thread.revisions += 1;
      thread.lastDraft = text;
      made = entry({ ...base, kind, diff });
    }
    thread.entries.push({ sort: timeOf(x.at), order: order++, entry: made });
  }
  for (const message of messages) {
    for (const subject of subjectsOf(message)) {
      const made = messageEntry(message, subject);
      // Board messages come after the exchanges that produced them when their times tie.
      if (made) threadOf(subject).entries.push({ sort: timeOf(message.createdAt), order: order++ + 1e9, entry: made });
    }
  }
  return [...threads.entries()]
    .map(([subject, t]) => {
      const entries = t.entries.sort((a, b) => a.sort - b.sort || a.order - b.order).map((e) => e.entry);
      return { subject, entries, revisions: t.revisions, status: statusOf(entries, t.revisions) };
    })
    .sort((a, b) => timeOf(a.entries[0]?.at) - timeOf(b.entries[0]?.at));
}
