/**
 * The house's company, loaded and validated with its vocabulary and the checks beyond the SOPs: the
 * prompt templates the steps render (src/capabilities/model/check-templates.ts), the policy beside
 * company.yaml, and each role's model settings.
 */
import { loadCompany as loadWith, type CompanyDefinition } from '../engine/run/load-company.ts';
import { validateCompany as validateWith, type CompanyChecks, type Validation } from '../engine/sop/validate-company.ts';
import { checkTemplates } from '../capabilities/model/check-templates.ts';
import { RoleModelSchema, type RoleModel } from '../capabilities/model/role-model.ts';
import { roleModelProblems } from '../capabilities/model/role-model-problems.ts';
import { policyDiagnostics } from '../capabilities/policy/load-policy.ts';
import { markdownRenderers, vocabulary } from './vocabulary.ts';

export const companyChecks: CompanyChecks = {
  roleModel: RoleModelSchema,
  folder: policyDiagnostics,
  roleModelProblems,
  templates: (rolesDir, roles) => checkTemplates(rolesDir, roles, { vocabulary, markdown: Object.keys(markdownRenderers) }),
};

/** A hired role, its model settings shaped (company.yaml's `model`, validated by RoleModelSchema). */
export type Role = Omit<CompanyDefinition['roles'][number], 'model'> & { model?: RoleModel };
export type Company = Omit<CompanyDefinition, 'roles'> & { roles: Role[] };

/** Loads sops/ and roles/, refusing a company with any error (`sopworks sop validate` lists them). */
export async function loadCompany(sopsDir: string, rolesDir: string): Promise<Company> {
  return (await loadWith(sopsDir, rolesDir, vocabulary, companyChecks)) as Company;
}

/** Every problem of sops/ and roles/ a run would trip on, for `sopworks sop validate`. */
export function validateCompany(sopsDir: string, rolesDir: string): Promise<Validation> {
  return validateWith(sopsDir, rolesDir, vocabulary, companyChecks);
}
