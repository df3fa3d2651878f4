/** The coverage matrix as a board message: committed as docs/test-reports/coverage.md (a change run: under its folder, kept in the run folder unless --commit-documents), rewritten each round. */
import * as S from '../../documents/index.ts';
import { coverageSummary, documentsCommitted, documentsDir } from '../../documents/index.ts';
import { defineMessage, oneDocument } from '../../engine/board/index.ts';
import { renderCoverage } from './render-coverage.ts';

export const Coverage = defineMessage({
  schema: S.Coverage,
  description:
    "The coverage matrix of a test round: each criterion (AC-n, KW-n), the tests that cite it and how they ended, and whether it is proven; built by the coverage step from the runner's output, committed as docs/test-reports/coverage.md (a change run: its folder, kept in the run folder unless --commit-documents).",
  ...oneDocument((_coverage: S.Coverage, board) => `${documentsDir(board)}/test-reports/coverage.md`, renderCoverage),
  // A change's coverage is no commit on its branch unless the run commits its documents.
  committed: (_coverage, board) => documentsCommitted(board),
  subject: (coverage) => {
    const s = coverageSummary(coverage);
    return `test: coverage after round ${coverage.round}, ${s.proven} of ${s.total} criteria proven (P0: ${s.p0Proven} of ${s.p0Total})`;
  },
});

export const ManualChecks = defineMessage({
  schema: S.ManualChecks,
  description:
    'The criteria QA declares manual — no automated test can prove them — each with why, the files to read and what to look for, sent to the review (the Product Manager); sent again when a file one reads has changed since its verdict. A coordination message: the verdicts show in the coverage matrix.',
});

export const ManualVerdicts = defineMessage({
  schema: S.ManualVerdicts,
  description:
    "The review's verdict on each manual check: accepted (the criterion is proven), rejected (back to the Engineer who owns the file) or testable (back to QA for its test), with the reason. A coordination message: the coverage matrix shows them.",
});
