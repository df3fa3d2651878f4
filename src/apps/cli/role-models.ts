/**
 * The model a run or a resume asks: each role's (`--model-for` over the company's or the run's own),
 * recorded for run.json, and its price checked against the limits before the run goes on.
 */
import type { BudgetLimits } from '../../capabilities/model/index.ts';
import type { Provider } from '../../capabilities/model/index.ts';
import type { RoleModel } from '../../capabilities/model/index.ts';
import { parseModelFor } from '../../capabilities/model/index.ts';
import type { Scenario } from '../../capabilities/model/index.ts';
import { createProviderForRoles, type LlmChoice } from '../../capabilities/model/index.ts';
import type { Settings } from '../../capabilities/model/index.ts';
import type { Company } from '../../company/index.ts';
import type { LlmRecord } from '../../company/index.ts';
import { sopPrompts } from '../../company/index.ts';
import { llmRecordOf } from './llm-record.ts';
import type { Output } from './output.ts';
import { checkBudgetPrices, priceOf } from './price-of.ts';
import { providerHooks } from './provider-hooks.ts';

export interface RoleModelsAsked {
  choice: LlmChoice;
  scenario: Scenario | null;
  settings: Settings;
  /** `--model`, or the run's own on a resume. */
  model: string | undefined;
  company: Company;
  /** Each role with the model it asks before `--model-for` (the company's, or what the run kept). */
  roles: readonly { id: string; model?: RoleModel | undefined }[];
  modelFor: readonly string[];
  /** The spec, for a local model's limits over the SOP's prompts. */
  spec: string;
  budget: BudgetLimits;
}

export async function roleModels(asked: RoleModelsAsked, io: Output): Promise<{ provider: Provider; llm: LlmRecord }> {
  const modelFor = parseModelFor(
    asked.modelFor,
    asked.company.roles.map((r) => r.id),
  );
  const { provider, roleModels } = await createProviderForRoles(
    asked.choice,
    asked.scenario,
    asked.settings,
    asked.model,
    providerHooks(io),
    asked.roles,
    modelFor,
    sopPrompts(asked.company, asked.spec),
  );
  const llm = llmRecordOf(asked.choice, provider, asked.model, asked.settings, roleModels);
  checkBudgetPrices(asked.budget, provider, priceOf(llm, asked.settings));
  return { provider, llm };
}
