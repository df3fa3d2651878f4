/**
 * The vocabulary of the house: every step, action, guard, view and message type a SOP may name, each
 * registered here in one line — the one place the engine's vocabulary is assembled and handed to it.
 * Adding a SOP step is a file in its capability (`defineStep`, src/engine/steps/step.ts) and a line below.
 */
import type { z } from 'zod';
import * as S from '../documents/index.ts';
import * as C from '../documents/index.ts';
import { runMessages } from '../engine/board/index.ts';
import * as actions from '../engine/steps/index.ts';
import * as guards from '../engine/steps/index.ts';
import * as coreViews from '../engine/steps/index.ts';
import { conclude } from '../engine/steps/index.ts';
import { stopAt } from '../engine/steps/index.ts';
import { publish } from '../engine/steps/index.ts';
import type { Vocabulary } from '../engine/steps/index.ts';
import { askStep } from '../capabilities/model/index.ts';
import { awaitApproval } from '../capabilities/approvals/index.ts';
import { Answers, Approval } from '../capabilities/approvals/index.ts';
import { clarify } from '../capabilities/approvals/index.ts';
import { awaitFile } from '../capabilities/artifacts/index.ts';
import { check } from '../capabilities/artifacts/index.ts';
import { eachFile } from '../capabilities/artifacts/index.ts';
import { planningMarkdown } from '../capabilities/artifacts/index.ts';
import * as planning from '../capabilities/artifacts/index.ts';
import { queueBugFiles, queueTasks } from '../capabilities/artifacts/index.ts';
import * as artifactViews from '../capabilities/artifacts/index.ts';
import { changeMessageTypes } from '../capabilities/change/index.ts';
import { baseRunnerStarted, noNewFailures, queueChangeTasks, taskOp } from '../capabilities/change/index.ts';
import { compareWithBase } from '../capabilities/change/index.ts';
import * as changeViews from '../capabilities/change/index.ts';
import { checkChangeTasks } from '../capabilities/change/index.ts';
import { edit } from '../capabilities/change/index.ts';
import { mapRepository } from '../capabilities/change/index.ts';
import { read } from '../capabilities/change/index.ts';
import { fastCheck } from '../capabilities/project/index.ts';
import { installDependencies } from '../capabilities/project/index.ts';
import { Dependencies } from '../capabilities/project/index.ts';
import { runProgram } from '../capabilities/project/index.ts';
import { BugReport, TestReport } from '../capabilities/test-round/index.ts';
import { renderBugReport, renderTestReport } from '../capabilities/test-round/index.ts';
import { runBaseTests } from '../capabilities/test-round/index.ts';
import { runTests } from '../capabilities/test-round/index.ts';
import { recordFailure, repeatedFailure, testsPassed } from '../capabilities/test-round/index.ts';

/** Every message type the board accepts, in the order the reference lists them. */
export const messageTypes: Vocabulary['messages'] = {
  Requirement: runMessages.Requirement,
  PRD: planning.PRD,
  Design: planning.Design,
  TaskGraph: planning.TaskGraph,
  Code: planning.Code,
  CodeComplete: planning.CodeComplete,
  Tests: planning.Tests,
  TestReport,
  Dependencies,
  BugReport,
  Document: planning.Document,
  Approval,
  Answers,
  Outcome: runMessages.Outcome,
  // A change run's documents (sopworks change).
  ...changeMessageTypes,
};

export const knownMessageTypes = (): string[] => Object.keys(messageTypes);

/** Structured outputs an `ask` step may request, besides `code` (one file) and `files` (several). */
export const askOutputs: Readonly<Record<string, z.ZodType>> = {
  Review: S.Review,
  // The questions a role asks the person before it writes (`clarify`).
  ClarifyingQuestions: S.ClarifyingQuestions,
  // The files a change run's step asks to read.
  ReadRequest: C.ReadRequest,
  ...Object.fromEntries(Object.entries(messageTypes).map(([name, type]) => [name, type.schema])),
};

/** What `{{markdown "Type" value}}` renders in a template. */
export const markdownRenderers: Readonly<Record<string, (value: unknown) => string>> = {
  ...planningMarkdown,
  TestReport: (v) => renderTestReport(v as S.TestReport),
  BugReport: (v) => renderBugReport(v as S.BugReport, 1),
};

export const vocabulary: Vocabulary = {
  steps: {
    ask: askStep(askOutputs),
    publish,
    check,
    runTests,
    eachFile,
    awaitFile,
    awaitApproval,
    clarify,
    conclude,
    stopAt,
    installDependencies,
    fastCheck,
    runProgram,
    mapRepository,
    read,
    edit,
    checkChangeTasks,
    runBaseTests,
    compareWithBase,
  },
  actions: {
    receive: actions.receive,
    keep: actions.keep,
    keepFeedback: actions.keepFeedback,
    clear: actions.clear,
    count: actions.count,
    resetCount: actions.resetCount,
    noteError: actions.noteError,
    clearError: actions.clearError,
    queueTasks,
    queueBugFiles,
    nextTask: actions.nextTask,
    finishTask: actions.finishTask,
    remember: actions.remember,
    forget: actions.forget,
    recordFailure,
    queueChangeTasks,
  },
  guards: {
    approved: guards.approved,
    below: guards.below,
    hasQueued: guards.hasQueued,
    testsPassed,
    repeatedFailure,
    repeats: guards.repeats,
    hasPublished: guards.hasPublished,
    isSet: guards.isSet,
    setting: guards.setting,
    taskOp,
    noNewFailures,
    baseRunnerStarted,
  },
  views: {
    spec: coreViews.spec,
    project: coreViews.project,
    error: coreViews.error,
    done: coreViews.done,
    current: coreViews.current,
    task: artifactViews.task,
    dependencies: artifactViews.dependencies,
    criteria: artifactViews.criteria,
    designExcerpt: artifactViews.designExcerptView,
    file: artifactViews.file,
    files: artifactViews.files,
    changeTask: changeViews.changeTask,
    changeRemoval: changeViews.changeRemoval,
    prd: artifactViews.prd,
    design: artifactViews.design,
    tasks: artifactViews.tasks,
    tests: artifactViews.tests,
    testReport: artifactViews.testReport,
    bug: artifactViews.bug,
    repoMap: changeViews.repoMap,
    changeRequest: changeViews.changeRequest,
    designDelta: changeViews.designDelta,
    changeTasks: changeViews.changeTasks,
    baseline: changeViews.baseline,
  },
  messages: messageTypes,
};
