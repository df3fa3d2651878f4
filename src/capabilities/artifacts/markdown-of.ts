/** Markdown renderings of the planning artifacts by name, for templates ({{markdown "PRD" prd}}). */

import type { Design, PRD, TaskGraph } from '../../documents/index.ts';
import { renderDesign } from './render/design.ts';
import { renderPrd } from './render/prd.ts';
import { renderTasks } from './render/tasks.ts';

export const planningMarkdown: Record<string, (value: unknown) => string> = {
  PRD: (v) => renderPrd(v as PRD),
  Design: (v) => renderDesign(v as Design, 'Project'),
  TaskGraph: (v) => renderTasks(v as TaskGraph),
};
