/**
 * The steps a SOP may invoke: the steps with effects (model calls, publishing, running tests), one file
 * each beside this one — its description and parameter schema next to its implementation (step.ts).
 * To add a step: write <step>.ts like ask.ts, and list it in both tables below.
 */
import type { RoleServices } from '../services.ts';
import type { VocabularyEntry } from './actions.ts';
import { ask, askActor } from './ask.ts';
import { awaitApproval, awaitApprovalActor } from './await-approval.ts';
import { awaitFile, awaitFileActor } from './await-file.ts';
import { check, checkActor } from './check.ts';
import { conclude, concludeActor } from './conclude.ts';
import { eachFile, eachFileActor } from './each-file.ts';
import { publish, publishActor } from './publish.ts';
import { runTests, runTestsActor } from './run-tests.ts';
import type { BuildMachine } from './step.ts';

export { askSchemas } from './ask-schemas.ts';

export const actorParams = { ask, publish, check, runTests, eachFile, awaitFile, awaitApproval, conclude } satisfies Record<string, VocabularyEntry>;

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
  };
}
