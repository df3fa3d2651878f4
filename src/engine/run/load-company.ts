/**
 * Loads the org chart (sops/company.yaml), each hired role's SOP (sops/<role>.yaml) and profile
 * (roles/<role>/role.yaml). Everything is validated first — with the same checks as
 * `sopworks sop validate` — so a bad file stops a run before anyone is hired, never halfway.
 */
import { SopworksError } from '../../ground/errors.ts';
import {
  type CompanyChecks,
  type Diagnostic,
  errorsIn,
  formatDiagnostic,
  type ValidatedCompany,
  type ValidatedRole,
  validateCompany,
  warningsIn,
} from '../sop/index.ts';
import type { Vocabulary } from '../steps/index.ts';

export type HiredRole = ValidatedRole;

export interface CompanyDefinition extends ValidatedCompany {
  /** Problems that do not stop a run (a message nobody reads, an unreachable state), to show the user. */
  warnings: Diagnostic[];
}

/** The company of sops/ and roles/ with the vocabulary and checks given (src/company/load-company.ts gives the house's), refused with every error it has. */
export async function loadCompanyDefinition(sopsDir: string, rolesDir: string, vocabulary: Vocabulary, checks: CompanyChecks = {}): Promise<CompanyDefinition> {
  const validation = await validateCompany(sopsDir, rolesDir, vocabulary, checks);
  const errors = errorsIn(validation.diagnostics);
  if (errors.length > 0 || !validation.company) {
    // A template problem alone is TEMPLATE_INVALID; anything else in the YAML files is SOP_INVALID.
    const code = errors.length > 0 && errors.every((e) => e.code === 'TEMPLATE_INVALID') ? 'TEMPLATE_INVALID' : 'SOP_INVALID';
    throw new SopworksError(code, errors.map(formatDiagnostic).join('\n'), {
      hint: `Fix ${errors.length === 1 ? 'it' : `these ${errors.length} problems`} and try again; \`sopworks sop validate --sops ${sopsDir} --roles ${rolesDir}\` checks the files without running anything.`,
    });
  }
  return { ...validation.company, warnings: warningsIn(validation.diagnostics) };
}
