/** The views of coverage a SOP step may hand to a template or a conclusion. */
import type { ManualChecks } from '../../documents/index.ts';
import { criteriaOf } from '../../documents/index.ts';
import { latestOf, type View } from '../../engine/steps/index.ts';
import { excerpt, SHOWN_CHARS } from '../../ground/text/index.ts';
import { latestFiles } from './manual-state.ts';

export const coverageView = latestOf(
  'Coverage',
  'The latest Coverage: `round`, `criteria` (each `id`, `text`, `priority`, `status` — proven, failing, rejected or untested — the `tests` citing it, and its `manual` check: `reason`, `artifacts`, `lookFor`, `verdict`, `verdictReason`, or null), `testsNamed`, `strayCitations`.',
);

export const manualReview: View = {
  description:
    "What a review of manual checks reads: the latest ManualChecks' `checks` (each `id`, the criterion's `text`, QA's `reason` no test can prove it, `lookFor` and the `artifacts` it names) and `files`: each artifact as the run last wrote it (`path`, `content`, and `inPart`: a long file a change edited is shown around its edits; fitted to the model's context like any list of files).",
  read: ({ board }) => {
    // Before any declaration (a prompt rendered to check its rules): nothing to review.
    const message = board.latest<ManualChecks>('ManualChecks') ?? { payload: { checks: [] } };
    const criteria = criteriaOf((board.latest('ChangeRequest') ?? board.latest('PRD'))?.payload);
    const written = latestFiles(board);
    const paths = [...new Set(message.payload.checks.flatMap((c) => c.artifacts))];
    return {
      checks: message.payload.checks.map((c) => ({ ...c, text: criteria.find((k) => k.id === c.id)?.text ?? '(not a criterion of this run)' })),
      files: paths.map((path) => {
        const file = written.get(path);
        if (!file) return { path, content: '(this run has not written this file)', inPart: null };
        // A long file a change edited: around its edits, as QA reads it (artifacts/views.ts, `files`).
        const shown = file.changed === null ? null : excerpt(file.content, SHOWN_CHARS, [], file.changed);
        if (!shown || shown.whole) return { path, content: file.content, inPart: null };
        return { path, content: shown.text, inPart: { lines: file.content.split('\n').length - (file.content.endsWith('\n') ? 1 : 0) } };
      }),
    };
  },
};
