/**
 * The steps a SOP may invoke: the steps with effects (model calls, publishing, running tests), one file
 * each beside this one — its description and parameter schema next to its implementation (step.ts).
 * To add a step: write <step>.ts like ask.ts, and list it in both tables below.
 */
import type { RoleServices } from '../../engine/sop/services.ts';
import type { VocabularyEntry } from '../../engine/steps/actions.ts';
import { ask, askActor } from '../../capabilities/model/ask-step.ts';
import { awaitApproval, awaitApprovalActor } from '../../capabilities/approvals/await-approval-step.ts';
import { awaitFile, awaitFileActor } from '../../capabilities/artifacts/await-file-step.ts';
import { check, checkActor } from '../../capabilities/artifacts/check-step.ts';
import { conclude, concludeActor } from '../../engine/steps/conclude.ts';
import { eachFile, eachFileActor } from '../../capabilities/artifacts/each-file-step.ts';
import { publish, publishActor } from '../../engine/steps/publish.ts';
import { runTests, runTestsActor } from '../../capabilities/test-round/run-tests-step.ts';
import { stopAt, stopAtActor } from '../../engine/steps/stop-at.ts';
import type { BuildMachine } from '../../engine/steps/step.ts';

export { askSchemas } from './ask-schemas.ts';

export const actorParams = { ask, publish, check, runTests, eachFile, awaitFile, awaitApproval, conclude, stopAt } satisfies Record<string, VocabularyEntry>;

/** `buildMachine` is handed in (not imported) so that the steps do not import the machine builder that imports them. */
export function actorImplementations(services: RoleServices, buildMachine: BuildMachine) {
  return {
    ask: askActor(services),
    publish: publishActor(services),
    check: checkActor(services),
    runTests: runTestsActor(services),
    eachFile: eachFileActor(services, buildMachine),
    awaitFile: awaitFileActor(services),
    awaitApproval: awaitApprovalActor(services),
    conclude: concludeActor(services),
    stopAt: stopAtActor(services),
  };
}
