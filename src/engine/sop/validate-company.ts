/**
 * Validates a company's folders — sops/ (company.yaml and a SOP per role) and roles/ (a profile and
 * the prompt templates per role) — collecting every problem a run would trip on, each at
 * file:line:column. `sopworks sop validate` prints them; `sopworks run` refuses to start on an error.
 * The SOPs are checked against the vocabulary handed in; what lies beyond them (the prompt templates,
 * the policy beside company.yaml, a role's model settings) by the checks handed in with it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import type { YamlSource } from '../../ground/files/index.ts';
import { type RoleProfile as Profile, RoleProfile } from '../roles/index.ts';
import { type CompanyFile, companyFileSchema, type RoleSettings, SopFile, type Vocabulary } from '../steps/index.ts';
import { resolveSopReferences } from './build-machine.ts';
import { checkMachine } from './check-machine.ts';
import { type CheckedRole, checkMessageFlow } from './check-message-flow.ts';
import { checkNames } from './check-names.ts';
import { checkSettings } from './check-settings.ts';
import { type Diagnostic, errorsIn, sopError, uniqueDiagnostics } from './diagnostic.ts';
import { type LoadedSubSop, loadSubSops } from './load-sub-sops.ts';
import { CLIENT } from './message-flow.ts';
import type { YamlPath } from './sop-walk.ts';
import { type Locator, loadYamlChecked, locatorOf } from './yaml-diagnostics.ts';

export interface ValidatedRole {
  id: string;
  watches: string[];
  /** The role's own model and fallbacks from company.yaml, when it names them (shaped by CompanyChecks.roleModel). */
  model?: unknown;
  /** The role's settings from company.yaml, read by its SOPs' `setting` guards ({} when it gives none). */
  settings: RoleSettings;
  /** The SOP with every parameter parsed (defaults filled in). */
  sop: SopFile;
  sopFile: string;
  profile: Profile;
  /** The per-file SOPs its `eachFile` steps run, by the name the step gives (checked, parameters parsed). */
  subSops: Record<string, SopFile>;
}

export interface ValidatedCompany {
  name: string;
  sopsDir: string;
  rolesDir: string;
  roles: ValidatedRole[];
  /** What its SOPs may name: the steps, actions, guards, views and message types a run builds them with. */
  vocabulary: Vocabulary;
}

export interface Validation {
  /** The company, when there is no error. */
  company: ValidatedCompany | null;
  diagnostics: Diagnostic[];
  /** The files read, for the summary of `sop validate`. */
  files: number;
}

/** A SOP whose prompt templates are checked: its role, and where its steps are. */
export interface TemplateRole {
  id: string;
  sop: SopFile;
  sopWhere: (at: YamlPath) => string;
}

/** What the composition root checks beyond the SOPs. */
export interface CompanyChecks {
  /** The schema of a role's `model` in company.yaml (anything, when absent). */
  roleModel?: z.ZodType;
  /** The files beside company.yaml (the policy): their problems and how many were read. */
  folder?: (sopsDir: string) => Promise<{ diagnostics: Diagnostic[]; files: number }>;
  /** A role's model settings beyond their shape (a key variable that is not set, say). */
  roleModelProblems?: (model: unknown, where: (at: YamlPath) => string) => Diagnostic[];
  /** The prompt templates the SOPs' steps render: their problems and how many were read. */
  templates?: (rolesDir: string, roles: readonly TemplateRole[]) => Promise<{ diagnostics: Diagnostic[]; checked: number }>;
}

interface RoleState {
  id: string;
  watches: string[];
  settings: RoleSettings;
  model?: unknown;
  sopFile: string;
  sop: SopFile | null;
  source: YamlSource | null;
  profile: Profile | null;
  subSops: LoadedSubSop[];
}

/** Problems and files read, gathered as the validation goes. */
class Findings {
  readonly diagnostics: Diagnostic[] = [];
  files = 0;
  add(...diagnostics: Diagnostic[]): void {
    this.diagnostics.push(...diagnostics);
  }
}

const subSopsByName = (parts: readonly LoadedSubSop[]): Record<string, SopFile> => Object.fromEntries(parts.map((p) => [p.name, p.sop]));

export async function validateCompany(sopsDir: string, rolesDir: string, vocabulary: Vocabulary, checks: CompanyChecks = {}): Promise<Validation> {
  const found = new Findings();
  const companyPath = path.join(sopsDir, 'company.yaml');
  if (!fs.existsSync(companyPath)) {
    found.add(
      sopError(
        `${companyPath}:1:1`,
        `missing: --sops must name a folder holding company.yaml; \`sopworks sop init DIR\` writes a copy of the defaults to start from`,
      ),
    );
    return { company: null, diagnostics: found.diagnostics, files: found.files };
  }
  const companyYaml = await loadYamlChecked(companyPath, companyFileSchema(checks.roleModel));
  found.files++;
  found.add(...companyYaml.diagnostics);
  if (!companyYaml.value || !companyYaml.source) return { company: null, diagnostics: found.diagnostics, files: found.files };
  const company = companyYaml.value;
  const companyWhere = locatorOf(companyYaml.source);
  found.add(...checkRoleEntries(company, companyWhere, vocabulary));
  if (checks.folder) {
    const folder = await checks.folder(sopsDir);
    found.add(...folder.diagnostics);
    found.files += folder.files;
  }
  const roles: RoleState[] = [];
  for (const [index, role] of company.roles.entries()) roles.push(await loadRole(role, index, { sopsDir, rolesDir, companyWhere, vocabulary, checks }, found));
  await checkAcrossRoles(roles, { rolesDir, companyWhere, vocabulary, checks }, found);

  const unique = uniqueDiagnostics(found.diagnostics);
  const complete = errorsIn(unique).length === 0 && roles.every((r) => r.sop !== null && r.profile !== null);
  return {
    company: complete ? { name: company.name ?? 'sopworks', sopsDir, rolesDir, roles: roles.map(validatedRole), vocabulary } : null,
    diagnostics: unique,
    files: found.files,
  };
}

/** Each role's id and watched types, as company.yaml names them. */
function checkRoleEntries(company: CompanyFile, companyWhere: Locator, vocabulary: Vocabulary): Diagnostic[] {
  const problems: Diagnostic[] = [];
  const seen = new Set<string>();
  company.roles.forEach((role, index) => {
    if (role.id === CLIENT)
      problems.push(
        sopError(companyWhere(['roles', index, 'id']), `the role id "${CLIENT}" is reserved: the client is who posts the Requirement; choose another id`),
      );
    if (seen.has(role.id))
      problems.push(
        sopError(companyWhere(['roles', index, 'id']), `role "${role.id}" is hired twice; give each role one entry (its watches can list several types)`),
      );
    seen.add(role.id);
    role.watches.forEach((type, i) => {
      if (!(type in vocabulary.messages)) {
        problems.push(
          sopError(companyWhere(['roles', index, 'watches', i]), `unknown message type "${type}"; known: ${Object.keys(vocabulary.messages).join(', ')}`),
        );
      }
    });
  });
  return problems;
}

interface Folders {
  sopsDir: string;
  rolesDir: string;
  companyWhere: Locator;
  vocabulary: Vocabulary;
  checks: CompanyChecks;
}

/** A role's SOP (and the per-file SOPs it runs) and its profile, each checked. */
async function loadRole(role: CompanyFile['roles'][number], index: number, folders: Folders, found: Findings): Promise<RoleState> {
  const { companyWhere, vocabulary } = folders;
  const sopFile = path.join(folders.sopsDir, role.sop ?? `${role.id}.yaml`);
  const state: RoleState = { id: role.id, watches: role.watches, settings: role.settings ?? {}, sopFile, sop: null, source: null, profile: null, subSops: [] };
  if (role.model !== undefined) state.model = role.model;
  if (folders.checks.roleModelProblems && role.model !== undefined) {
    found.add(...folders.checks.roleModelProblems(role.model, (at) => companyWhere(['roles', index, 'model', ...at])));
  }
  if (!fs.existsSync(sopFile)) {
    found.add(
      sopError(
        companyWhere(['roles', index, role.sop ? 'sop' : 'id']),
        `role "${role.id}" has no SOP file ${sopFile}; write it (\`sopworks sop init DIR\` gives examples), or name another file with sop:`,
      ),
    );
  } else {
    const loaded = await loadYamlChecked(sopFile, SopFile);
    found.files++;
    found.add(...loaded.diagnostics);
    if (loaded.value && loaded.source) {
      const where = locatorOf(loaded.source);
      const resolved = resolveSopReferences(loaded.value, loaded.source, vocabulary);
      found.add(...resolved.problems.map((p) => sopError(p.where, p.message)));
      found.add(...checkMachine(resolved.sop, where, vocabulary), ...checkNames(resolved.sop, where, vocabulary));
      state.sop = resolved.sop;
      state.source = loaded.source;
      const parts = await loadSubSops(resolved.sop, sopFile, where, vocabulary);
      found.add(...parts.diagnostics);
      found.files += parts.files;
      state.subSops = parts.subSops;
      const sops = [resolved.sop, ...parts.subSops.map((part) => part.sop)];
      found.add(...checkSettings(state.settings, sops, (at) => companyWhere(['roles', index, 'settings', ...at]), vocabulary));
    }
  }
  state.profile = await loadProfile(role.id, role.profile ?? 'role.yaml', index, folders, found);
  return state;
}

async function loadProfile(id: string, file: string, index: number, folders: Folders, found: Findings): Promise<Profile | null> {
  const profileFile = path.join(folders.rolesDir, id, file);
  if (!fs.existsSync(profileFile)) {
    found.add(
      sopError(
        folders.companyWhere(['roles', index, file === 'role.yaml' ? 'id' : 'profile']),
        `role "${id}" has no profile ${profileFile}; write it with name, title, goal and constraints (see roles/qa/role.yaml)`,
      ),
    );
    return null;
  }
  const profile = await loadYamlChecked(profileFile, RoleProfile);
  found.files++;
  found.add(...profile.diagnostics);
  return profile.value ? { ...profile.value, id, email: `${id}@sopworks.local` } : null;
}

/** The company as a whole: who sends what to whom, and the templates every step renders. */
async function checkAcrossRoles(roles: readonly RoleState[], folders: Omit<Folders, 'sopsDir'>, found: Findings): Promise<void> {
  const withSop = roles.filter((r): r is RoleState & { sop: SopFile; source: YamlSource } => r.sop !== null && r.source !== null);
  const flowRoles: CheckedRole[] = roles.map((r) => ({
    id: r.id,
    watches: r.watches,
    sop: r.sop,
    subSops: subSopsByName(r.subSops),
    sopWhere: r.source ? locatorOf(r.source) : null,
  }));
  found.add(...checkMessageFlow(flowRoles, folders.companyWhere, withSop.length === roles.length, folders.vocabulary));
  if (!folders.checks.templates) return;
  const templateRoles: TemplateRole[] = withSop.flatMap((r) => [
    { id: r.id, sop: r.sop, sopWhere: locatorOf(r.source) },
    ...r.subSops.map((part) => ({ id: r.id, sop: part.sop, sopWhere: locatorOf(part.source) })),
  ]);
  const templates = await folders.checks.templates(folders.rolesDir, templateRoles);
  found.add(...templates.diagnostics);
  found.files += templates.checked;
}

function validatedRole(r: RoleState): ValidatedRole {
  return {
    id: r.id,
    watches: r.watches,
    settings: r.settings,
    ...(r.model !== undefined ? { model: r.model } : {}),
    sop: r.sop!,
    sopFile: r.sopFile,
    profile: r.profile!,
    subSops: subSopsByName(r.subSops),
  };
}
