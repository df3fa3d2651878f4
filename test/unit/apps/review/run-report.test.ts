/** The run report: timeline summaries, artifacts and their commits, QA rounds, usage and cost, text. */
import assert from 'node:assert/strict';
import type { Commit } from '../../../../src/apps/review/git-history.ts';
import { summarizeMessage } from '../../../../src/apps/review/message-summary.ts';
import type { RunRecord } from '../../../../src/apps/review/read-run.ts';
import { renderReportText } from '../../../../src/apps/review/report-text.ts';
import { Exchange, RunInfo } from '../../../../src/apps/review/run-files.ts';
import { buildRunReport } from '../../../../src/apps/review/run-report.ts';
import { testRoundsOf } from '../../../../src/apps/review/test-rounds.ts';
import { usageSummary } from '../../../../src/apps/review/usage-summary.ts';
import type { Message } from '../../../../src/engine/board/index.ts';

/** The report without colours (picocolors colours it when the tests run in a terminal). */
const plain = (text: string): string => text.replace(/\x1b\[[0-9;]*m/g, '');

let seq = 0;
function msg(type: string, from: string, payload: unknown, to = 'all'): Message {
  seq += 1;
  return {
    id: `msg-${String(seq).padStart(6, '0')}`,
    seq,
    type,
    from,
    to,
    causedBy: seq > 1 ? [`msg-${String(seq - 1).padStart(6, '0')}`] : [],
    payload,
    createdAt: new Date(Date.UTC(2024, 4, 1, 12, 0, seq)).toISOString(),
  };
}

const prd = {
  projectName: 'wc',
  summary: 'Counts words.',
  goals: ['count'],
  userStories: [{ asA: 'writer', iWant: 'counts', soThat: 'I see' }],
  requirementPool: [{ id: 'R1', description: 'count', priority: 'P0' }],
  acceptanceCriteria: ['counts'],
  openQuestions: [],
};
const report = (round: number, passed: boolean) => ({
  round,
  command: ['node', '--test'],
  passed,
  exitCode: passed ? 0 : 1,
  timedOut: false,
  counts: { passed: passed ? 3 : 1, failed: passed ? 0 : 2 },
  failures: passed ? [] : [{ name: 'counts words', message: 'expected 2, got 1' }],
  signature: 'x',
  output: '',
});
const bug = { summary: 'count is off by one', failingTests: ['counts words'], files: [{ path: 'src/count.js', problem: 'off by one' }] };

function wordCounterRun(): Message[] {
  seq = 0;
  return [
    msg('Requirement', 'client', { spec: 'a word counter', project: 'wc' }),
    msg('PRD', 'product-manager', prd),
    msg('Code', 'engineer', { path: 'src/count.js', content: 'a\nb\n', review: { approved: false, issues: ['name things', 'test more'] } }),
    msg('TestReport', 'qa', report(1, false)),
    msg('BugReport', 'qa', bug, 'engineer'),
    msg('Code', 'engineer', { path: 'src/count.js', content: 'fixed\n', review: { approved: true, issues: [] } }),
    msg('TestReport', 'qa', report(2, true)),
    msg('Outcome', 'qa', { outcome: 'done', reason: 'all tests pass' }),
  ];
}

const exchange = (role: string, action: string, attempt: number, prompt: number, completion: number) =>
  Exchange.parse({ role, action, attempt, reply: '', usage: { promptTokens: prompt, completionTokens: completion }, ok: true });

const info = (extra: Record<string, unknown> = {}) =>
  RunInfo.parse({
    spec: 'a word counter',
    project: 'wc',
    model: 'scripted:demo',
    sops: '/nowhere',
    roles: '/nowhere',
    startedAt: '2024-05-01T12:00:00.000Z',
    ...extra,
  });

function record(messages: Message[], extra: Partial<RunRecord> = {}): RunRecord {
  return { dir: '/runs/wc', name: 'wc', info: info(), messages, exchanges: [], roleStates: [], runningPid: null, warnings: [], ...extra };
}

describe('review: the run report', () => {
  it('summarises each message in one line that says what it carries', () => {
    const [requirement, prdMessage, rejected, failed, bugMessage, , passed, outcome] = wordCounterRun();
    assert.equal(summarizeMessage(requirement!), 'a word counter');
    assert.equal(summarizeMessage(prdMessage!), 'wc: 1 goal, 1 requirement, 1 acceptance criterion');
    assert.equal(summarizeMessage(rejected!), 'src/count.js (3 lines) — review: 2 issues left');
    assert.equal(summarizeMessage(failed!), 'round 1 failed (1 passed, 2 failed)');
    assert.equal(summarizeMessage(passed!), 'round 2 passed (3 passed, 0 failed)');
    assert.equal(summarizeMessage(bugMessage!), 'count is off by one');
    assert.equal(summarizeMessage(outcome!), 'done: all tests pass');
    const long = msg('Requirement', 'client', { spec: 'word '.repeat(100), project: 'wc' });
    assert.ok(summarizeMessage(long).length <= 120 && summarizeMessage(long).endsWith('…'));
  });

  it('pairs each QA round with the bug report written from it', () => {
    const rounds = testRoundsOf(wordCounterRun());
    assert.deepEqual(
      rounds.map((r) => [r.report.round, r.report.passed, r.bug?.payload.summary ?? null]),
      [
        [1, false, 'count is off by one'],
        [2, true, null],
      ],
    );
  });

  it('sums usage from the exchanges while a run goes on: a re-ask is not another call', () => {
    const usage = usageSummary(null, [
      exchange('architect', 'design', 1, 100, 10),
      exchange('architect', 'design', 2, 120, 12),
      exchange('qa', 'write_tests', 1, 50, 5),
    ]);
    assert.equal(usage.source, 'exchanges');
    assert.deepEqual(usage.total, {
      name: 'total',
      calls: 2,
      promptTokens: 270,
      completionTokens: 27,
      cachedPromptTokens: 0,
      cacheHitRate: null,
      repairs: 1,
      costs: {},
    });
    assert.deepEqual(
      usage.byRole.map((r) => [r.name, r.calls, r.repairs]),
      [
        ['architect', 1, 1],
        ['qa', 1, 0],
      ],
    );
    assert.deepEqual(
      usage.byAction.map((r) => r.name),
      ['architect/design', 'qa/write_tests'],
    );
    assert.deepEqual(usage.costFields, []);
  });

  it('takes usage from run.json when the run finished, with any cost fields it recorded', () => {
    const totals = (calls: number, costUsd: number | null) => ({ calls, promptTokens: 10 * calls, completionTokens: calls, repairs: 0, costUsd });
    const finished = info({
      finishedAt: 'x',
      outcome: 'done',
      usage: { total: totals(3, 0.25), byRole: { pm: totals(1, 0.05), qa: totals(2, null) }, byAction: { 'pm/write_prd': totals(1, 0.05) } },
    });
    const usage = usageSummary(finished, [exchange('pm', 'write_prd', 1, 1, 1)]);
    assert.equal(usage.source, 'run.json');
    assert.deepEqual(usage.costFields, ['costUsd']);
    assert.deepEqual(
      usage.byRole.map((r) => [r.name, r.costs.costUsd]),
      [
        ['pm', 0.05],
        ['qa', null],
      ],
    );

    const text = plain(renderReportText(buildRunReport(record([], { info: { ...finished, costUsd: 0.25, budget: { usd: 1, tokens: null } } }), [])));
    assert.match(text, /^Cost {5}\$0\.2500\n/m, 'labels and units as a person writes them');
    assert.match(text, /^Budget {3}\$1\.00\n/m);
    assert.match(text, /role\s+calls\s+prompt tokens\s+cached\s+hit rate\s+completion tokens\s+re-asks\s+cost\n/);
    assert.match(text, /qa\s+2\s+20\s+—\s+—\s+2\s+0\s+unknown/, 'a provider that said nothing of its cache: no hit rate');
    assert.match(text, /total\s+3\s+30\s+—\s+—\s+3\s+0\s+\$0\.2500/);
  });

  it('shows the prompt tokens a cache served and the hit rate per role, as the provider reported them', () => {
    const cachedExchange = (role: string, prompt: number, cached: number | undefined) =>
      Exchange.parse({ role, action: 'a', attempt: 1, reply: '', usage: { promptTokens: prompt, completionTokens: 1, cachedPromptTokens: cached }, ok: true });
    const live = usageSummary(null, [cachedExchange('engineer', 2000, 0), cachedExchange('engineer', 2000, 1536), cachedExchange('qa', 500, undefined)]);
    assert.deepEqual(
      live.byRole.map((r) => [r.name, r.cachedPromptTokens, r.cacheHitRate]),
      [
        ['engineer', 1536, 0.384],
        ['qa', 0, null],
      ],
    );
    assert.equal(live.total.cacheHitRate, 1536 / 4000, 'the whole is the prompt tokens of the calls whose provider said');

    const totals = (prompt: number, cached: number, reported: number) => ({
      calls: 1,
      promptTokens: prompt,
      completionTokens: 1,
      repairs: 0,
      cachedPromptTokens: cached,
      cacheReportedTokens: reported,
    });
    const finished = info({
      finishedAt: 'x',
      outcome: 'done',
      usage: { total: totals(4000, 3000, 4000), byRole: { engineer: totals(4000, 3000, 4000) }, byAction: { 'engineer/a': totals(4000, 3000, 4000) } },
    });
    const text = plain(renderReportText(buildRunReport(record([], { info: finished }), [])));
    assert.match(text, /engineer\s+1\s+4,000\s+3,000\s+75\.0%\s+1\s+0/);
  });

  it('lists each artifact with the files it became and the commit that added them', () => {
    const messages = wordCounterRun();
    const commits: Commit[] = [
      {
        hash: 'a'.repeat(40),
        author: 'Product Manager',
        email: 'pm@x',
        date: '',
        subject: 'docs: product requirements for wc',
        messageId: 'msg-000002',
        files: ['docs/prd.md'],
      },
      { hash: 'b'.repeat(40), author: 'Engineer', email: 'e@x', date: '', subject: 'feat: add src/count.js', messageId: 'msg-000003', files: ['src/count.js'] },
    ];
    const built = buildRunReport(record(messages, { info: info({ finishedAt: 'x', outcome: 'done', reason: 'all tests pass' }) }), commits);
    assert.deepEqual(
      built.artifacts.map((a) => [a.messageId, a.type, a.paths.join(','), a.commit?.[0] ?? null]),
      [
        ['msg-000002', 'PRD', 'docs/prd.md', 'a'],
        ['msg-000003', 'Code', 'src/count.js', 'b'],
        ['msg-000004', 'TestReport', 'docs/test-reports/round-1.md', null],
        ['msg-000005', 'BugReport', 'docs/bug-reports/bug-1.md', null],
        ['msg-000006', 'Code', 'src/count.js', null],
        ['msg-000007', 'TestReport', 'docs/test-reports/round-2.md', null],
      ],
    );
    assert.deepEqual(built.status, {
      finished: true,
      running: false,
      outcome: 'done',
      reason: 'all tests pass',
      phase: { phase: 'done', label: 'done', continuable: false },
      resumeAt: null,
    });
    assert.deepEqual(
      built.timeline.map((t) => t.offsetMs),
      [1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000],
    );
  });

  it('prints outcome, timeline in order, artifacts, tests, usage and git log', () => {
    const messages = wordCounterRun();
    const commits: Commit[] = [
      { hash: 'c'.repeat(40), author: 'Engineer', email: 'e@x', date: '', subject: 'feat: add src/count.js', messageId: 'msg-000003', files: [] },
    ];
    const text = plain(
      renderReportText(buildRunReport(record(messages, { info: info({ finishedAt: 'x', outcome: 'done', reason: 'all tests pass', wallMs: 8000 }) }), commits)),
    );
    const order = [
      'Outcome  done — all tests pass',
      'Timeline (8 messages)',
      'client → all',
      'product-manager → all',
      'qa → engineer',
      'Artifacts (6)',
      'Tests',
      'round 1  failed (1 passed, 2 failed)',
      '✗ counts words: expected 2, got 1',
      'bug report msg-000005 → engineer: count is off by one',
      'round 2  passed',
      'Usage',
      'Git log (1 commit)',
      'ccccccc  Engineer  feat: add src/count.js  msg-000003',
    ];
    let at = -1;
    for (const part of order) {
      const found = text.indexOf(part, at + 1);
      assert.ok(found > at, `"${part}" should come after what precedes it in:\n${text}`);
      at = found;
    }
    assert.match(text, /cost: not recorded by this run/);
  });

  it('says a run without an outcome is in progress while its process lives, and how to continue it otherwise', () => {
    const messages = wordCounterRun().slice(0, 3);
    const live = plain(renderReportText(buildRunReport(record(messages, { runningPid: 4242 }), [])));
    assert.match(live, /Outcome  in progress\n/);
    assert.match(live, /Usage so far \(from the model exchanges\)/);
    const stopped = plain(renderReportText(buildRunReport(record(messages), [])));
    assert.match(stopped, /stopped before an outcome — no sopworks process is at work on it; `sopworks resume \/runs\/wc` continues it/);
  });
});
