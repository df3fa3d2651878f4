/**
 * The vocabulary of the house: every step, action, guard, view and message type a SOP may name, each
 * registered here in one line — the one place the engine's vocabulary is assembled and handed to it.
 * Adding a SOP step is a file in its capability (`defineStep`, src/engine/steps/step.ts) and a line below.
 * Each face is imported once, under its own name: an entry says where it comes from (`steps.receive`,
 * `artifacts.PRD`, `change.repoMap`).
 */
import type { z } from 'zod';
import * as approvals from '../capabilities/approvals/index.ts';
import * as artifacts from '../capabilities/artifacts/index.ts';
import * as change from '../capabilities/change/index.ts';
import * as coverage from '../capabilities/coverage/index.ts';
import * as model from '../capabilities/model/index.ts';
import * as project from '../capabilities/project/index.ts';
import * as testRound from '../capabilities/test-round/index.ts';
import * as documents from '../documents/index.ts';
import * as board from '../engine/board/index.ts';
import * as steps from '../engine/steps/index.ts';
import { runDocuments } from './run-documents.ts';

/** Every message type the board accepts, in the order the reference lists them. */
export const messageTypes: steps.Vocabulary['messages'] = {
  Requirement: board.runMessages.Requirement,
  PRD: artifacts.PRD,
  Design: artifacts.Design,
  TaskGraph: artifacts.TaskGraph,
  Code: artifacts.Code,
  CodeComplete: artifacts.CodeComplete,
  Tests: artifacts.Tests,
  TestReport: testRound.TestReport,
  Coverage: coverage.Coverage,
  ManualChecks: coverage.ManualChecks,
  ManualVerdicts: coverage.ManualVerdicts,
  Dependencies: project.Dependencies,
  BugReport: testRound.BugReport,
  Document: artifacts.Document,
  Approval: approvals.Approval,
  Answers: approvals.Answers,
  Outcome: board.runMessages.Outcome,
  // A change run's documents (sopworks change).
  ...change.changeMessageTypes,
};

export const knownMessageTypes = (): string[] => Object.keys(messageTypes);

/** Structured outputs an `ask` step may request, besides `code` (one file) and `files` (several). */
export const askOutputs: Readonly<Record<string, z.ZodType>> = {
  // A reply is held to what its prompt asks for; the board also keeps what older runs posted.
  ...Object.fromEntries(Object.entries(messageTypes).map(([name, type]) => [name, type.schema])),
  PRD: documents.PRD,
  Review: documents.ReviewVerdict,
  // The questions a role asks the person before it writes (`clarify`).
  ClarifyingQuestions: documents.ClarifyingQuestions,
  // The files a change run's step asks to read.
  ReadRequest: documents.ReadRequest,
  // QA's reading of a change's failed round: source files for the Engineer, its own tests to rewrite.
  TestTriage: documents.TestTriage,
};

/** What `{{markdown "Type" value}}` renders in a template. */
export const markdownRenderers: Readonly<Record<string, (value: unknown) => string>> = {
  ...artifacts.planningMarkdown,
  TestReport: (v) => testRound.renderTestReport(v as documents.TestReport),
  Coverage: (v) => coverage.renderCoverage(v as documents.Coverage),
  BugReport: (v) => testRound.renderBugReport(v as documents.BugReport, 1),
};

export const vocabulary: steps.Vocabulary = {
  steps: {
    ask: model.askStep(askOutputs),
    publish: steps.publish,
    check: artifacts.check,
    runTests: testRound.runTests,
    eachFile: artifacts.eachFile,
    awaitFile: artifacts.awaitFile,
    awaitApproval: approvals.awaitApproval,
    clarify: approvals.clarify,
    conclude: steps.conclude,
    stopAt: steps.stopAt,
    installDependencies: project.installDependencies,
    fastCheck: project.fastCheck,
    runProgram: project.runProgram,
    mapRepository: change.mapRepository,
    read: change.read,
    nearestTests: change.nearestTests,
    edit: change.edit,
    checkChangeTasks: change.checkChangeTasks,
    checkTestCommand: change.checkTestCommand,
    runBaseTests: testRound.runBaseTests,
    compareWithBase: change.compareWithBase,
    rerunNewFailures: testRound.rerunNewFailures,
    coverage: coverage.coverage,
    manualClaims: coverage.manualClaims,
    pendingManualChecks: coverage.pendingManualChecks,
    manualBug: coverage.manualBug,
  },
  actions: {
    receive: steps.receive,
    keep: steps.keep,
    keepFeedback: steps.keepFeedback,
    clear: steps.clear,
    count: steps.count,
    resetCount: steps.resetCount,
    noteError: steps.noteError,
    clearError: steps.clearError,
    queueTasks: artifacts.queueTasks,
    addFiles: artifacts.addFiles,
    queueBugFiles: artifacts.queueBugFiles,
    nextTask: steps.nextTask,
    finishTask: steps.finishTask,
    remember: steps.remember,
    forget: steps.forget,
    recordFailure: testRound.recordFailure,
    queueChangeTasks: change.queueChangeTasks,
  },
  guards: {
    approved: steps.approved,
    below: steps.below,
    hasQueued: steps.hasQueued,
    testsPassed: testRound.testsPassed,
    ownTestsWrong: testRound.ownTestsWrong,
    repeatedFailure: testRound.repeatedFailure,
    flakySetAside: testRound.flakySetAside,
    criteriaProven: coverage.criteriaProven,
    criteriaUntested: coverage.criteriaUntested,
    criteriaRejected: coverage.criteriaRejected,
    manualReviewDue: coverage.manualReviewDue,
    hasManualChecks: coverage.hasManualChecks,
    repeats: steps.repeats,
    hasPublished: steps.hasPublished,
    isSet: steps.isSet,
    setting: steps.setting,
    taskOp: change.taskOp,
    noNewFailures: change.noNewFailures,
    baseRunnerStarted: change.baseRunnerStarted,
  },
  views: {
    spec: steps.spec,
    request: steps.request,
    project: steps.project,
    error: steps.error,
    errors: steps.errors,
    done: steps.done,
    current: steps.current,
    task: artifacts.task,
    dependencies: artifacts.dependencies,
    criteria: artifacts.criteria,
    designExcerpt: artifacts.designExcerptView,
    file: artifacts.file,
    files: artifacts.files,
    changeTask: change.changeTask,
    changeDependencies: change.changeDependencies,
    editCriteria: change.editCriteria,
    changeRemoval: change.changeRemoval,
    prd: artifacts.prd,
    design: artifacts.design,
    tasks: artifacts.tasks,
    tests: artifacts.tests,
    testReport: artifacts.testReport,
    coverage: coverage.coverageView,
    manualReview: coverage.manualReview,
    bug: artifacts.bug,
    repoMap: change.repoMap,
    changeRequest: change.changeRequest,
    designDelta: change.designDelta,
    changeTasks: change.changeTasks,
    baseline: change.baseline,
    existingTests: change.existingTests,
    documents: runDocuments,
  },
  messages: messageTypes,
};
