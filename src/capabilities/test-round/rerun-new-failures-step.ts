/** `rerunNewFailures`: a round's new failures run again, the flaky ones set aside (flaky-tests.ts, rerun-tests.ts). */
import { z } from 'zod';
import { type BaselineTests, type RepositoryMap, type TestFiles, TestReport } from '../../documents/index.ts';
import { ownRecordLine } from '../../engine/board/index.ts';
import { defineStep, type Ports } from '../../engine/steps/index.ts';
import { SopworksError } from '../../ground/errors.ts';
import { judgeFlaky, rerunCandidates, withoutFlaky } from './flaky-tests.ts';
import { type RerunRequest, rerunBase, rerunRound } from './rerun-tests.ts';

export const rerunNewFailures = defineStep({
  description:
    'Tell flaky tests from broken ones in a test report compared with the base (a compareWithBase step; slot default testReport): when ' +
    "tests that did not fail on the base fail now, the same test command runs again on the same tree, and the base's tests again where " +
    "they ran (a copy of the work tree holding the base's files), once each. A test seen both passing and failing on the same code is " +
    'flaky and not blamed on the change — never one the change wrote (its name cites a criterion, or names a test file the change wrote). ' +
    'The output is the report with `vsBase.flaky` (each test with what it was seen doing) and `vsBase.newFailures` for what remains; ' +
    'nothing runs when no such test is new. Nothing it runs stays in the work tree, so a re-run after a resume is the same step again.',
  params: z.object({ slot: z.string().min(1).default('testReport'), timeoutMs: z.number().int().min(1000).default(120_000) }).strict(),
  output: TestReport,
  async run({ params, context }, ports) {
    const report = context.slots[params.slot] as TestReport | undefined;
    if (!report?.vsBase) throw new SopworksError('SOP_INVALID', `rerunNewFailures: the slot ${params.slot} holds no test report compared with the base.`);
    const base = ports.board.latest<BaselineTests>('BaselineTests')?.payload ?? null;
    const map = ports.board.latest<RepositoryMap>('RepositoryMap')?.payload;
    const changeFiles = ports.board.all<TestFiles>('Tests').flatMap((m) => m.payload.files.map((f) => f.path));
    // A round stopped at a limit, or whose build failed before its tests, names no failing test: nothing to run again.
    const stopped = report.timedOut || (report.sandbox?.limitsHit.length ?? 0) > 0 || (report.kind ?? 'tests') !== 'tests';
    const candidates = !base || !map || stopped ? [] : rerunCandidates(report.vsBase, changeFiles, base.ran && base.runner.started);
    if (candidates.length === 0 || !base || !map) return report;
    const { rerun, baseRerun } = await rerunBoth(report, base, map.base, candidates.length, params.timeoutMs, ports);
    const verdict = judgeFlaky({
      round: report.round,
      fresh: report.vsBase.failingNow,
      candidates,
      roundTotal: report.counts ? report.counts.passed + report.counts.failed : Number.POSITIVE_INFINITY,
      rerun,
      baseRerun,
    });
    const beyond = report.counts && base.counts ? report.counts.failed - verdict.flaky.length - base.counts.failed : null;
    const changeWrote = report.vsBase.failingNow.filter((name) => !candidates.includes(name));
    const vsBase = withoutFlaky(report.vsBase, verdict, changeWrote, beyond);
    const flaky = vsBase.flaky.map((f) => `${f.name} (${f.evidence})`).join('; ');
    ports.run.report({
      kind: 'check',
      detail: `round ${report.round}: ${vsBase.newFailures ? 'new failures remain' : 'nothing new'}${flaky ? `; flaky, not blamed: ${flaky}` : ''}`,
    });
    return { ...report, vsBase };
  },
});

/** The round's command again on its tree, then the base's tests on the base's files: once each. */
async function rerunBoth(report: TestReport, base: BaselineTests, commit: string, count: number, timeoutMs: number, ports: Ports) {
  const { repository } = ports;
  const request: RerunRequest = {
    root: repository.root,
    round: report.round,
    timeoutMs,
    sandbox: ports.sandbox,
    progress: (event) => ports.run.report(event),
    acceptRecordLine: ownRecordLine(ports.board),
    holdCommits: (work) => repository.withCommitsHeld(work),
  };
  ports.run.report({
    kind: 'check',
    detail: `round ${report.round}: ${count} test${count === 1 ? '' : 's'} that passed on the base failed: running the tests again, and the base's, to tell a flaky test from a broken one`,
  });
  await repository.filesOnDisk();
  const rerun = await ports.run.trackWork(() => rerunRound(request, { command: report.command, build: report.build?.command ?? null }));
  const baseRerun = await ports.run.trackWork(() => rerunBase(request, { command: base.command, build: base.build?.command ?? null }, commit));
  return { rerun, baseRerun };
}
