/** The views of coverage a SOP step may hand to a template or a conclusion. */
import { latestOf } from '../../engine/steps/index.ts';

export const coverageView = latestOf(
  'Coverage',
  'The latest Coverage: `round`, `criteria` (each `id`, `text`, `priority`, `status` — proven, failing or untested — and the `tests` citing it), `testsNamed`, `strayCitations`.',
);
