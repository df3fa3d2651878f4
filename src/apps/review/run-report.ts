/**
 * What a review shows of a run, in one structure shared by the terminal report and the web viewer:
 * its outcome, the timeline of messages, the artifacts and where they landed, the QA rounds, the
 * model usage and the git history. Pure: built from what read-run and git-history read.
 */
import { type RunFigures, runFigures } from '../../capabilities/project/index.ts';
import { Coverage, type Outcome } from '../../documents/index.ts';
import { artifactsOf } from './artifacts.ts';
import type { Commit } from './git-history.ts';
import { labelOf, shownValue } from './human-labels.ts';
import { summarizeMessage } from './message-summary.ts';
import type { RunRecord } from './read-run.ts';
import type { RunInfo } from './run-files.ts';
import { type Phase, runPhase } from './run-phase.ts';
import { type TestRound, testRoundsOf } from './test-rounds.ts';
import { type UsageSummary, usageSummary } from './usage-summary.ts';

export interface RunStatus {
  /** Finished runs have their outcome in run.json. */
  finished: boolean;
  /** A sopworks process holds the run's lock: the run is in progress right now. */
  running: boolean;
  outcome: string | null;
  reason: string | null;
  /** Where the run stands, for a header: its phase, in words, and whether resume would take it further. */
  phase: Phase;
  /** When a run paused at its endpoint's limit can go on (ISO 8601); null otherwise. */
  resumeAt: string | null;
}

export interface TimelineEntry {
  id: string;
  seq: number;
  type: string;
  from: string;
  to: string;
  causedBy: string[];
  createdAt: string;
  /** Milliseconds since the run started; null when the time cannot be read. */
  offsetMs: number | null;
  summary: string;
}

export interface ArtifactEntry {
  messageId: string;
  seq: number;
  type: string;
  from: string;
  paths: string[];
  /** The commit that added the files, found by its trailer; null until it is committed. */
  commit: string | null;
  /** False for a document kept in the run folder (`.sopworks/documents/`), never committed. */
  onBranch: boolean;
}

export interface RunReport {
  name: string;
  dir: string;
  info: RunInfo | null;
  /** Cost and budget facts run.json recorded at its top level (their shape is the recorder's). */
  costFacts: { name: string; value: string }[];
  status: RunStatus;
  timeline: TimelineEntry[];
  artifacts: ArtifactEntry[];
  tests: TestRound[];
  /** The last coverage matrix: each criterion, the tests that cite it and whether it is proven; null before one. */
  coverage: Coverage | null;
  /** Completeness, executability, tests and fast checks, from the board. */
  figures: RunFigures;
  usage: UsageSummary;
  commits: Commit[];
  warnings: string[];
}

const COST_FACT = /cost|budget/i;

export function runStatus(record: RunRecord): RunStatus {
  const { info } = record;
  const running = record.runningPid !== null;
  // A resumed run keeps its earlier outcome in run.json until it ends again: the lock says which is current.
  const finished = Boolean(info?.finishedAt && info.outcome && !running);
  const phase = runPhase({ running, outcome: finished ? info!.outcome! : null }, record.messages);
  if (finished) return { finished, running, outcome: info!.outcome!, reason: info!.reason ?? null, phase, resumeAt: info!.resumeAt ?? null };
  const posted = record.messages.findLast((m) => m.type === 'Outcome')?.payload as Outcome | undefined;
  return { finished, running, outcome: posted?.outcome ?? null, reason: posted?.reason ?? null, phase, resumeAt: null };
}

/** The last Coverage message's matrix, when it reads as one. */
function lastCoverage(messages: RunRecord['messages']): Coverage | null {
  const last = messages.findLast((m) => m.type === 'Coverage');
  const parsed = last ? Coverage.safeParse(last.payload) : null;
  return parsed?.success ? parsed.data : null;
}

export function buildRunReport(record: RunRecord, commits: Commit[]): RunReport {
  const warnings = [...record.warnings];
  const start = Date.parse(record.info?.startedAt ?? record.messages[0]?.createdAt ?? '');
  const commitOf = new Map(commits.flatMap((c) => (c.messageId ? [[c.messageId, c.hash] as const] : [])));
  return {
    name: record.name,
    dir: record.dir,
    info: record.info,
    costFacts: Object.entries(record.info ?? {})
      .filter(([key]) => COST_FACT.test(key))
      .map(([name, value]) => ({ name: labelOf(name), value: shownValue(name, value) })),
    status: runStatus(record),
    timeline: record.messages.map((m) => {
      const at = Date.parse(m.createdAt);
      return {
        id: m.id,
        seq: m.seq,
        type: m.type,
        from: m.from,
        to: m.to,
        causedBy: m.causedBy,
        createdAt: m.createdAt,
        offsetMs: Number.isNaN(at) || Number.isNaN(start) ? null : at - start,
        summary: summarizeMessage(m),
      };
    }),
    artifacts: artifactsOf(record.messages, warnings).map(({ message, files, onBranch }) => ({
      messageId: message.id,
      seq: message.seq,
      type: message.type,
      from: message.from,
      paths: files.map((f) => f.path),
      commit: commitOf.get(message.id) ?? null,
      onBranch,
    })),
    tests: testRoundsOf(record.messages),
    coverage: lastCoverage(record.messages),
    figures: runFigures(record.messages),
    usage: usageSummary(
      record.info,
      record.exchanges.map((e) => e.exchange),
    ),
    commits,
    warnings,
  };
}
