/** Markdown renderings by artifact name, for templates ({{markdown "PRD" prd}}). */
import { renderPrd } from './render/prd.ts';
import { renderDesign } from './render/design.ts';
import { renderTasks } from './render/tasks.ts';
import { renderTestReport, renderBugReport } from '../test-round/render-test-report.ts';
import type { BugReport, Design, PRD, TaskGraph, TestReport } from '../../documents/schemas.ts';

export const renderers: Record<string, (value: unknown) => string> = {
  PRD: (v) => renderPrd(v as PRD),
  Design: (v) => renderDesign(v as Design, 'Project'),
  TaskGraph: (v) => renderTasks(v as TaskGraph),
  TestReport: (v) => renderTestReport(v as TestReport),
  BugReport: (v) => renderBugReport(v as BugReport, 1),
};
