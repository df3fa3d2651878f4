/**
 * What a new run and a change check alike before anything is written — one path for both: the company
 * (its warnings said), the stop point and the questions it is asked for, its policy and registries, the
 * model each role asks and its price against the limits, and whether generated code can run here.
 */
import { GATES, type Gate } from '../capabilities/approvals/index.ts';
import type { BudgetLimits, LlmChoice, Scenario, Settings } from '../capabilities/model/index.ts';
import { loadPolicy, type Policy } from '../capabilities/policy/index.ts';
import { dependencyRegistries } from '../capabilities/project/index.ts';
import { type Company, loadCompany } from '../company/index.ts';
import { checkClarify, checkUntil } from '../engine/run/index.ts';
import { formatDiagnostic } from '../engine/sop/index.ts';
import { SopworksError } from '../ground/errors.ts';
import { refuseUnsandboxableAtStart, sandboxSettings } from '../host/sandbox/index.ts';
import type { SessionHooks } from './hooks.ts';
import { chooseModel, type ModelChosen } from './model-choice.ts';
import { providerHooksOf } from './provider-lines.ts';

export interface CompanyAsked {
  sops: string;
  roles: string;
  clarify: boolean;
  until?: string | undefined;
  model?: string | undefined;
  modelFor: string[];
  budget: number | null;
  maxTokens: number | null;
  allowUnsandboxed: boolean;
}

export interface CompanyPrepared extends ModelChosen {
  company: Company;
  policy: Policy;
  budget: BudgetLimits;
}

/** `text`: the spec or the change request, for a local model's limits over the SOP's prompts. */
export async function prepareCompany(
  ask: CompanyAsked,
  model: { choice: LlmChoice; scenario: Scenario | null; settings: Settings; text: string },
  hooks: SessionHooks,
): Promise<CompanyPrepared> {
  // Whether any generated code could run here: probed while the company loads, refused before anything is written.
  const sandboxCheck = refuseUnsandboxableAtStart(sandboxSettings(model.settings.sandbox, ask.allowUnsandboxed));
  const company = await loadCompany(ask.sops, ask.roles);
  for (const warning of company.warnings) hooks.lines.err(formatDiagnostic(warning));
  checkUntil(company, ask.until);
  checkClarify(company, ask.clarify);
  const policy = await loadPolicy(ask.sops);
  // A registry set to something that is not a URL is refused now, before anything is written.
  dependencyRegistries(policy);
  const budget = { usd: ask.budget, tokens: ask.maxTokens };
  const chosen = await chooseModel({ ...model, model: ask.model, company, roles: company.roles, modelFor: ask.modelFor, budget }, providerHooksOf(hooks));
  const unsandboxable = await sandboxCheck;
  if (unsandboxable) throw unsandboxable;
  return { ...chosen, company, policy, budget };
}

/** The gates `--approve` names (null: none asked); an unknown one is named, with the gates there are. `command`: whose help the hint names. */
export function gatesOf(asked: string[] | null, command: string): Gate[] {
  if (asked === null) return [];
  const unknown = asked.filter((g) => !(GATES as readonly string[]).includes(g));
  if (unknown.length > 0 || asked.length === 0) {
    throw new SopworksError(
      'USAGE',
      `--approve: unknown gate ${unknown.map((g) => `"${g}"`).join(', ') || '(none)'}; use a comma list of ${GATES.join(', ')}`,
      { hint: `See \`sopworks help ${command}\`.` },
    );
  }
  return asked as Gate[];
}
