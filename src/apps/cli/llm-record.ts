/** What run.json keeps of the model a run uses, so that `resume` reopens the same one. */
import path from 'node:path';
import type { LlmRecord } from '../../company/index.ts';
import type { Settings } from '../../capabilities/model/index.ts';
import type { LlmChoice } from '../../capabilities/model/index.ts';
import type { RoleModelRecord } from '../../capabilities/model/index.ts';
import type { Provider } from '../../capabilities/model/index.ts';

/** `roleModels`: each role's models, when roles have their own (src/capabilities/model/role-model.ts); kept for resume. */
export function llmRecordOf(
  choice: LlmChoice,
  provider: Provider,
  model: string | undefined,
  settings: Settings,
  roleModels: Record<string, RoleModelRecord> | null = null,
): LlmRecord {
  if (choice.kind === 'scripted') return { kind: 'scripted', file: path.resolve(choice.file), ...(choice.chaos ? { chaos: choice.chaos } : {}) };
  // The file that was loaded (a name from the cache is kept as its path: the cache may change).
  if (choice.kind === 'local') return { kind: 'local', model: (provider as { modelFile?: string }).modelFile ?? provider.label.replace(/^local:/, '') };
  return { kind: 'openai', model: model ?? settings.model.model, ...(roleModels ? { roles: roleModels } : {}) };
}

/** The provider a resumed run reopens when no --llm is given. */
export function choiceOfRecord(llm: LlmRecord): LlmChoice {
  if (llm.kind === 'scripted') return { kind: 'scripted', file: llm.file, chaos: llm.chaos ?? null };
  if (llm.kind === 'local') return { kind: 'local', model: llm.model };
  return { kind: 'openai' };
}
