/** engine/sop: its public face — what other folders may use of it. */
export { buildMachine, resolveSop } from './build-machine.ts';
export { resolveCallKey } from './call-key.ts';
export { companyGraph, roleGraph } from './company-graph.ts';
export { type Diagnostic, errorsIn, formatDiagnostic, type Severity, sopError, sopWarning, templateError, warningsIn } from './diagnostic.ts';
export { type CompanyFolders, initCompanyFolder } from './init-company-folder.ts';
export { type Judge, judgesOf, rulesOfJudges } from './judges.ts';
export { CLIENT } from './message-flow.ts';
export { stepsNamed, stepsOf } from './sop-walk.ts';
export { sopStateDiagram } from './state-diagram.ts';
export { type CompanyChecks, type TemplateRole, type ValidatedCompany, type ValidatedRole, type Validation, validateCompany } from './validate-company.ts';
export { vocabularyReference } from './vocabulary-reference.ts';
export { loadYamlChecked, locatorOf } from './yaml-diagnostics.ts';
