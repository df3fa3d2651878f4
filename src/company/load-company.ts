/**
 * The house's company, loaded and validated with its vocabulary and the checks beyond the SOPs: the
 * prompt templates the steps render (src/capabilities/model/check-templates.ts), the policy beside
 * company.yaml, and each role's model settings.
 */

import { checkTemplates, type RoleModel, RoleModelSchema, roleModelProblems } from '../capabilities/model/index.ts';
import { policyDiagnostics } from '../capabilities/policy/index.ts';
import { type CompanyDefinition, loadCompanyDefinition } from '../engine/run/index.ts';
import { type CompanyChecks, type Validation, validateCompany as validateCompanyWith } from '../engine/sop/index.ts';
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
  return (await loadCompanyDefinition(sopsDir, rolesDir, vocabulary, companyChecks)) as Company;
}

/** Every problem of sops/ and roles/ a run would trip on, for `sopworks sop validate`. */
export function validateCompany(sopsDir: string, rolesDir: string): Promise<Validation> {
  return validateCompanyWith(sopsDir, rolesDir, vocabulary, companyChecks);
}
